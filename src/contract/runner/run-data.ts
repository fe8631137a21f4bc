import { CannotCreate, CheckSkipped } from '../failure.ts';
import { Settle } from '../settle.ts';
import { collectionCreated } from '../judges/values.ts';
import { uphold } from '../judges/verdict.ts';
import { runName } from '../target-api/run-name.ts';
import type { Target } from '../target-api/target.ts';
import { lookBack, objectsLeft, type LeftObject } from './leftovers.ts';

/** A collection this run created through the target, with its objects. */
export interface CreatedCollection {
  id: string;
  name: string;
  objectIds: string[];
  /** A word that occurs in every object's content and nowhere but in this run's data. */
  word: string;
}

/**
 * The collections the target listed before the run wrote anything: someone else's, never the
 * run's to write to or delete. `listed` is false where no list could be read (none described,
 * or it failed): then a create's answer is read back by its get instead.
 */
export interface BeforeRun {
  readonly ids: ReadonlySet<string>;
  readonly listed: boolean;
}

/**
 * What the list shows with each key before the run (the full key's account, the other
 * account's). A list that cannot be read is no protection, and no reason to refuse the run:
 * `listed: false` says so, and `RunData.claim` reads each create back instead.
 */
export async function listBeforeRun(
  target: Target,
  keys: ReadonlyArray<string | undefined>,
): Promise<BeforeRun> {
  const ids = new Set<string>();
  if (!target.offers('listCollections')) return { ids, listed: false };
  try {
    for (const key of new Set(keys))
      if (key !== undefined)
        for (const summary of await target.walkCollections({ key })) {
          const id = target.collectionIdOf(summary);
          if (id !== undefined) ids.add(id);
        }
    return { ids, listed: true };
  } catch {
    return { ids, listed: false };
  }
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
  /** What the run created, by id: the key it was created with and the name it was given. */
  readonly #created = new Map<string, { key: string; name: string }>();
  /** The names the run sent each of its collections in updates, whatever was answered. */
  readonly #renames = new Map<string, Set<string>>();
  /** Every name the run sent in a create, whether or not the create answered an id. */
  readonly #names = new Set<string>();
  /** Every object the run created: what a get or a search after the clean-up must not find. */
  readonly #objects: Array<LeftObject & { key: string }> = [];
  /** Whether the run wrote anything (created, or saw a write accepted that should not be). */
  #wrote = false;
  #sequence = 0;
  #main: Promise<CreatedCollection> | undefined;

  constructor(
    readonly target: Target,
    readonly runId: string,
    /** What was there before the run (`listBeforeRun`): never the run's. */
    readonly before: BeforeRun = { ids: new Set(), listed: false },
  ) {}

  /** A word that occurs nowhere but in data this run created. */
  get uniqueWord(): string {
    return `zq${this.runId}`;
  }

  /** A fresh name of this run's (`answers-contract-<run id>-<what>`), remembered as the run's. */
  name(what: string): string {
    const name = runName(this.runId, what);
    this.#names.add(name);
    return name;
  }

  /**
   * Whether a collection, as the target shows it, carries exactly `name` (or, with no name given,
   * any name this run sent): its name member where the description says where that is, else the
   * name as a whole JSON string anywhere in it. Never a part of a longer text: a user's collection
   * that quotes a run name in its metadata or its own name is not the run's.
   */
  carries(collection: unknown, name?: string): boolean {
    const names = name === undefined ? this.#names : new Set([name]);
    const shown = this.target.nameOf(collection);
    if (shown !== undefined) return names.has(shown);
    const text = JSON.stringify(collection ?? null);
    for (const each of names) if (text.includes(JSON.stringify(each))) return true;
    return false;
  }

  /**
   * Whether an answer to a create is the collection this run asked for: a create that answers
   * another name (a get-or-create, a cache) answered someone else's collection, which the run
   * must never delete. An answer that shows no name is read back before anything is deleted.
   */
  answeredOther(collection: unknown, name: string): string | undefined {
    const shown = this.target.nameOf(collection);
    return shown !== undefined && shown !== name ? shown : undefined;
  }

  /**
   * Creates a collection with one object per content, named for this run. Throws `CannotCreate`,
   * sending nothing, when the description offers no operation to create it with, and
   * `CheckSkipped` naming the operation and the answer when the target cannot create test data.
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
        throw new CannotCreate(`cannot create test data: ${target.missing(needed)}`, needed);
    }
    const name = this.name(`t${++this.#sequence}-${what}`);
    this.#wrote = true;
    const created = await target.send('createCollection', {
      key,
      body: { name, metadata: { created_by: 'answers-contract', run_id: this.runId } },
    });
    const collection = target.collectionIn(created.json);
    const id = target.collectionIdOf(collection);
    if (created.status >= 200 && created.status < 300 && id) {
      const refused = await this.claim(id, collection, name, key ?? '');
      if (refused !== undefined)
        uphold(
          collectionCreated(
            id,
            `${created.status} with ${refused} (${created.method} ${created.path} for a collection named "${name}")`,
          ),
        );
    }
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
      this.#objects.push({ target: objectId, collection: { target: id }, key: key ?? '' });
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

  /**
   * Whether the collection a create answered (`id`, shown as `collection`, for a create named
   * `name`) is the run's: the one rule of ownership for every front-end that writes (the suite,
   * explore, replay). Refused, with why (a COLL-1 divergence for the caller), when it is an id
   * the list showed before the run, when the answer names it otherwise than the name sent, or,
   * where no list could be read, when its get shows another name. What is refused is never
   * tracked, and nothing is sent to it; what is claimed is the run's to delete.
   */
  async claim(
    id: string,
    collection: unknown,
    name: string,
    key: string,
  ): Promise<string | undefined> {
    this.#wrote = true;
    this.#names.add(name);
    const refused = this.#refusal(id, collection, name) ?? (await this.#shownBack(id, name, key));
    if (refused === undefined) this.#created.set(id, { key, name });
    return refused;
  }

  /** Why an answer to a create is not the run's, as far as the answer itself shows. */
  #refusal(id: string, collection: unknown, name: string): string | undefined {
    if (this.before.ids.has(id))
      return `collection ${id}, which the list showed before the run: another collection, not ours, never written to nor deleted`;
    const other = this.answeredOther(collection, name);
    if (other !== undefined)
      return `collection ${id}, named "${shorten(other, 80)}", not the "${name}" it was sent: another collection, not ours, never written to nor deleted`;
    return undefined;
  }

  /**
   * Where no list was read before the run, the create's answer is read back by its get: a get
   * that shows another name (the id of a collection that was there) is someone else's.
   */
  async #shownBack(id: string, name: string, key: string): Promise<string | undefined> {
    if (this.before.listed || !this.target.offers('getCollection')) return undefined;
    const got = await this.target.send('getCollection', {
      key: key || undefined,
      params: { collection_id: id },
    });
    if (got.status < 200 || got.status >= 300) return undefined;
    const shown = this.target.nameOf(this.target.collectionIn(got.json));
    return shown === undefined || shown === name
      ? undefined
      : `collection ${id}, which its get shows named "${shorten(shown, 80)}", not the "${name}" it was sent: another collection, not ours, never written to nor deleted`;
  }

  /**
   * Remembers a collection a check made (or a broken target made when it should have refused),
   * created with `name` (one of {@link name}'s), unless it is not the run's (an id listed before
   * the run, or an answer named otherwise), or renamed by the run to `name`.
   */
  track(id: string, name: string, answer?: unknown, key = ''): void {
    this.#wrote = true;
    this.#names.add(name);
    if (this.#refusal(id, answer, name) === undefined) this.#created.set(id, { key, name });
  }

  /**
   * Why the run must not delete collection `id`, if it must not: read back first with `key`, as
   * the clean-up does, it is refused on evidence that it is someone else's (an id listed before
   * the run, or a get that shows it with a name the run never sent). A collection gone, or one
   * whose get shows no name, is not refused: deleting what is gone harms no one, and a name a
   * target does not show is no evidence.
   */
  async mayNotDelete(id: string, key: string): Promise<string | undefined> {
    if (this.before.ids.has(id))
      return `collection ${id} was listed before the run: not ours, not deleted`;
    if (!this.target.offers('getCollection')) return undefined;
    const got = await this.target.send('getCollection', { key, params: { collection_id: id } });
    if (got.status < 200 || got.status >= 300) return undefined;
    const collection = this.target.collectionIn(got.json);
    const shown = this.target.nameOf(collection);
    if (shown === undefined || this.carries(collection)) return undefined;
    return `collection ${id} is shown named "${shorten(shown, 80)}", a name the run never gave it: not ours, not deleted`;
  }

  /**
   * Remembers a name the run sends a collection of its own in an update, before it knows the
   * answer: an update in parts may take the rename and refuse the rest, and the clean-up must
   * still know the collection by either name. A name of this run's, fresh, is no one else's.
   */
  renaming(id: string, name: string): void {
    this.#names.add(name);
    const names = this.#renames.get(id) ?? new Set<string>();
    names.add(name);
    this.#renames.set(id, names);
  }

  /** Forgets a collection a check deleted itself. */
  forget(id: string): void {
    this.#created.delete(id);
  }

  /**
   * Reads a collection back with `key` before it is deleted: `ours` only when the target shows it
   * carrying `name` (or a name of this run), `gone` when the target answers it is gone, and
   * otherwise why it is not deleted. The list (with the same key) answers where no get is
   * described, or the get answers neither.
   */
  async #readBack(
    id: string,
    key: string,
    name: string | undefined,
    listed: (key: string) => Promise<unknown[]>,
  ): Promise<'ours' | 'gone' | string> {
    const target = this.target;
    const judge = (collection: unknown) => {
      const renamed = [...(this.#renames.get(id) ?? [])];
      if (this.carries(collection, name) || renamed.some((each) => this.carries(collection, each)))
        return 'ours';
      const shown = target.nameOf(collection);
      return shown === undefined
        ? 'not ours, not deleted: the target shows it without the name the run gave it'
        : `not ours, not deleted: the target shows it named "${shorten(shown, 80)}"`;
    };
    let answered = '';
    let shown: string | undefined;
    if (target.offers('getCollection')) {
      const got = await target.send('getCollection', { key, params: { collection_id: id } });
      if (got.status >= 200 && got.status < 300) {
        shown = judge(target.collectionIn(got.json));
        if (shown === 'ours') return shown;
        // @note A get that shows another collection than the one asked for (a lookup off by
        // one, a stale cache) is a wrong answer, not the last word: the list reads it again.
      } else if (target.isGone(got.status)) return 'gone';
      else answered = `, and its get answered ${got.status}`;
    }
    if (!target.offers('listCollections'))
      return shown ?? `not deleted: the run could not read it back${answered}`;
    const summary = (await listed(key)).find((each) => target.collectionIdOf(each) === id);
    if (summary === undefined) return shown ?? 'gone';
    return judge(summary);
  }

  /**
   * Deletes what this run created, each only after reading it back carrying the run's name (a
   * create that answered someone else's collection loses them nothing), then looks for the run's
   * data as a user would: walks the list for anything still named with a name the run sent (and
   * deletes that too), lists again, and searches for the run's word. Whatever is still visible is
   * left behind, even where its delete answered "gone": a soft delete that keeps listing is not a
   * delete. Returns what is left, each id once, and why: a non-empty list fails the run.
   */
  async cleanup(
    keys: { full: string },
    settle = new Settle(0),
    /**
     * `false`: only the deletes, each read back first; the caller looks for what is still
     * visible itself, once for many clean-ups (explore, at the run's end).
     */
    look = true,
  ): Promise<string[]> {
    const target = this.target;
    const left = new Map<string, string>();
    if (!this.#wrote) return [];
    if (!target.offers('deleteCollection')) {
      return [...this.#created.keys()].map((id) => `${id} (${target.missing('deleteCollection')})`);
    }
    // @note One walk per key for the read-backs of a clean-up, not one per collection.
    const walks = new Map<string, Promise<unknown[]>>();
    const listed = (key: string) => {
      if (!walks.has(key)) walks.set(key, target.walkCollections({ key }));
      return walks.get(key)!;
    };
    const remove = async (id: string, key: string, name?: string, summary?: unknown) => {
      // @note Listed before the run: someone else's, whatever name it shows now.
      if (this.before.ids.has(id))
        return void left.set(id, `${id} (listed before the run: not ours, not deleted)`);
      try {
        const verdict =
          summary !== undefined ? 'ours' : await this.#readBack(id, key, name, listed);
        if (verdict === 'gone') return;
        if (verdict !== 'ours') {
          left.set(id, `${id} (${verdict})`);
          return;
        }
        const response = await target.send('deleteCollection', {
          key,
          params: { collection_id: id },
        });
        if ((response.status < 200 || response.status >= 300) && !target.isGone(response.status))
          left.set(id, `${id} (${response.status})`);
      } catch (error) {
        left.set(id, `${id} (${(error as Error).message})`);
      }
    };
    const created = [...this.#created];
    this.#created.clear();
    await Promise.all(created.map(([id, { key, name }]) => remove(id, key || keys.full, name)));
    if (!look) return [...left.values()];
    // @note Every key the run created with: the other account's data is only listed to it.
    const holders = [keys.full, ...created.map(([, { key }]) => key).filter(Boolean)];
    const ids = new Set(left.keys());
    for (const each of await lookBack(
      target,
      holders,
      (summary) => this.carries(summary),
      settle,
      this.before.ids,
    ))
      if (!ids.has(each.split(' ')[0]!)) left.set(each, each);
    // @note The run's objects, looked for as explore and replay look for theirs: a get of each,
    // and a search for the run's word.
    const kept = [...left.values()];
    const objects = await objectsLeft(
      target,
      this.#objects.splice(0),
      (object) => object.key || keys.full,
      settle,
      [this.uniqueWord],
      kept,
    );
    return [...kept, ...objects];
  }
}
