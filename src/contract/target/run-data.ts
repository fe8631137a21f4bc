import { CheckSkipped } from '../failure.ts';
import type { Target } from './target.ts';

/** A collection this run created through the target, with its objects. */
export interface CreatedCollection {
  id: string;
  name: string;
  objectIds: string[];
  /** A word that occurs in every object's content and nowhere but in this run's data. */
  word: string;
}

/** A short value for messages: long bodies are cut. */
export function shorten(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * What a run creates on the target, through the operations its description offers. Every name
 * carries the run id and the time (`answers-contract-<run>-<n>-<what>`), so a person, a later
 * cleanup and `answers-contract sweep` can tell it apart. The id of a record is taken from the raw
 * 2xx answer before anything is checked, so nothing the run created goes untracked.
 */
export class RunData {
  readonly #created = new Map<string, string>();
  #sequence = 0;
  #main: Promise<CreatedCollection> | undefined;

  constructor(
    readonly target: Target,
    readonly runId: string,
  ) {}

  /** A word that occurs nowhere but in data this run created. */
  get uniqueWord(): string {
    return `zq${this.runId}`;
  }

  /** Whether a name (or any text) belongs to this run's data. */
  isOurs(text: string): boolean {
    return text.includes(`answers-contract-${this.runId}-`);
  }

  /**
   * Creates a collection with one object per content, named for this run. Throws `CheckSkipped`
   * naming the operation and the answer when the target cannot create test data.
   */
  async createCollection(
    what: string,
    contents: object[] = [],
    key?: string,
  ): Promise<CreatedCollection> {
    const target = this.target;
    for (const needed of ['createCollection', 'createObject'] as const) {
      if (needed === 'createObject' && contents.length === 0) continue;
      if (!target.offers(needed))
        throw new CheckSkipped(`cannot create test data: ${target.missing(needed)}`);
    }
    const name = `answers-contract-${this.runId}-t${++this.#sequence}-${what}`;
    const created = await target.send('createCollection', {
      key,
      body: { name, metadata: { created_by: 'answers-contract', run_id: this.runId } },
    });
    const id = target.collectionIdOf(target.collectionIn(created.json));
    if (created.status >= 200 && created.status < 300 && id) this.#created.set(id, key ?? '');
    if (created.status < 200 || created.status >= 300 || !id) {
      throw new CheckSkipped(
        `could not create test data with ${created.method} ${created.path}: ${created.status} ${shorten(created.text, 120)}${id ? '' : ` (no collection id at ${target.description.collection.in}${target.description.collection.id})`}; check createCollection in the target description`,
      );
    }
    const objectIds: string[] = [];
    for (const content of contents) {
      const object = await target.send('createObject', {
        key,
        params: { collection_id: id },
        body: { content },
      });
      const objectId = target.objectIdOf(target.objectIn(object.json));
      if (object.status < 200 || object.status >= 300 || !objectId) {
        throw new CheckSkipped(
          `could not create test data with ${object.method} ${object.path}: ${object.status} ${shorten(object.text, 120)}; check createObject in the target description`,
        );
      }
      objectIds.push(objectId);
    }
    return { id, name, objectIds, word: this.uniqueWord };
  }

  /** The shared data set of a destructive run: one collection with three objects, made once. */
  main(): Promise<CreatedCollection> {
    this.#main ??= this.createCollection('main', [
      { title: `${this.uniqueWord} first`, body: 'The first object of the contract run.' },
      { title: `${this.uniqueWord} second`, tags: ['contract'] },
      { title: 'third without the run word', body: 'nothing to find here' },
    ]);
    return this.#main;
  }

  /** Remembers a collection a check made (or a broken target made when it should have refused). */
  track(id: string, key = ''): void {
    this.#created.set(id, key);
  }

  /** Forgets a collection a check deleted itself. */
  forget(id: string): void {
    this.#created.delete(id);
  }

  /**
   * Deletes what this run created, then walks the list for anything still named with the run id
   * and deletes that too. Returns what is left (and why): a non-empty list fails the run.
   */
  async cleanup(keys: { full: string }): Promise<string[]> {
    const target = this.target;
    const left: string[] = [];
    if (!target.offers('deleteCollection')) {
      return [...this.#created.keys()].map((id) => `${id} (${target.missing('deleteCollection')})`);
    }
    const remove = async (id: string, key: string) => {
      try {
        const response = await target.send('deleteCollection', {
          key: key || keys.full,
          params: { collection_id: id },
        });
        if ((response.status < 200 || response.status >= 300) && !target.isGone(response.status))
          return `${id} (${response.status})`;
      } catch (error) {
        return `${id} (${(error as Error).message})`;
      }
      return undefined;
    };
    for (const [id, key] of this.#created) {
      const problem = await remove(id, key);
      if (problem) left.push(problem);
    }
    this.#created.clear();
    // @note A create that answered something unusable (no id, an error with the record made
    // anyway) leaves a record only the name can find.
    if (target.offers('listCollections')) {
      try {
        for (const summary of await target.walkCollections({ key: keys.full })) {
          if (!this.isOurs(JSON.stringify(summary))) continue;
          const id = target.collectionIdOf(summary);
          const problem = id
            ? await remove(id, keys.full)
            : `a collection named for this run without an id`;
          if (problem && !left.some((entry) => entry.startsWith(`${id} `))) left.push(problem);
        }
      } catch (error) {
        left.push(
          `(could not list collections to look for leftovers: ${(error as Error).message})`,
        );
      }
    }
    return left;
  }
}
