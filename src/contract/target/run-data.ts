import { CheckFailure, CheckSkipped } from '../failure.ts';
import { Settle } from '../settle.ts';
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
  /** Every object the run created: what a search after the clean-up must not find. */
  readonly #objects = new Set<string>();
  /** Whether the run wrote anything (created, or saw a write accepted that should not be). */
  #wrote = false;
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
    this.#wrote = true;
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
      this.#objects.add(objectId);
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
    this.#wrote = true;
    this.#created.set(id, key);
  }

  /** Forgets a collection a check deleted itself. */
  forget(id: string): void {
    this.#created.delete(id);
  }

  /**
   * Deletes what this run created, then looks for the run's data as a user would: walks the list
   * for anything still named with the run id (and deletes that too), lists again, and searches
   * for the run's word. Whatever is still visible is left behind, even where its delete answered
   * "gone": a soft delete that keeps listing is not a delete. Returns what is left, and why: a
   * non-empty list fails the run.
   */
  async cleanup(keys: { full: string }, settle = new Settle(0)): Promise<string[]> {
    const target = this.target;
    const left = new Map<string, string>();
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
          left.set(id, `${id} (${response.status})`);
      } catch (error) {
        left.set(id, `${id} (${(error as Error).message})`);
      }
    };
    if (!this.#wrote) return [];
    const keyOf = new Map(this.#created);
    await Promise.all([...this.#created].map(([id, key]) => remove(id, key)));
    this.#created.clear();
    // @note Every key the run created with: the other account's data is only listed to it.
    const listKeys = new Set([keys.full, ...[...keyOf.values()].filter(Boolean)]);
    const ours = async () => {
      const found: Array<{ id: string | undefined; key: string }> = [];
      if (!target.offers('listCollections')) return found;
      for (const key of listKeys)
        for (const summary of await target.walkCollections({ key }))
          if (this.isOurs(JSON.stringify(summary)))
            found.push({ id: target.collectionIdOf(summary), key });
      return found;
    };
    // @note Only the run's own objects count: a search may always answer its nearest hits.
    const stillFound = async () => {
      if (!target.offers('search') || this.#objects.size === 0) return [];
      const found = await target.send('search', {
        key: keys.full,
        body: { query: this.uniqueWord },
      });
      const hits = found.status === 200 ? (target.hitsOf(found.json) ?? []) : [];
      return hits
        .map((hit) => target.hitObjectIdOf(hit))
        .filter((id): id is string => id !== undefined && this.#objects.has(id));
    };
    try {
      // @note A create that answered something unusable (no id, an error with the record made
      // anyway) leaves a record only the name can find.
      for (const { id, key } of await ours())
        if (id === undefined) left.set('', 'a collection named for this run without an id');
        else if (!left.has(id)) await remove(id, key);
      // @note What is still visible after --settle is left behind; a target whose list and
      // search show a delete a moment later gets that moment.
      let visible: { listed: Array<{ id: string | undefined }>; objects: string[] } = {
        listed: [],
        objects: [],
      };
      await settle
        .until(async () => {
          visible = {
            listed: (await ours()).filter(({ id }) => id !== undefined && !left.has(id)),
            objects: await stillFound(),
          };
          if (visible.listed.length > 0 || visible.objects.length > 0)
            throw new CheckFailure('still visible');
        })
        .catch((error: unknown) => {
          if (!(error instanceof CheckFailure)) throw error;
        });
      for (const { id } of visible.listed)
        left.set(id!, `${id} (still listed after its delete was answered)`);
      for (const id of visible.objects)
        left.set(`object ${id}`, `object ${id} (still found by a search for ${this.uniqueWord})`);
    } catch (error) {
      left.set('', `(could not list or search for leftovers: ${(error as Error).message})`);
    }
    return [...left.values()];
  }
}
