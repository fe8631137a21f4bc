import { Collection, type Query } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { knownRecordMarks, markRecord } from './record-marks.ts';

/**
 * Records in `@msw/data` collections of at most {@link CHUNK} records each, each record marked with
 * the collection that holds it ({@link HOLDER}).
 * @note `@msw/data` finds a record by scanning its collection's array (`findIndex` on update and
 * delete), so one large collection makes a write cost what the record's position costs: 14 ms
 * for the newest of 100,000 objects against 1 ms for the oldest. Bounded collections keep every
 * write's scan short, wherever the record sits. Why 32: the scan is bound by memory, not by
 * comparisons (in a large heap each record it reads is a cache miss), so a delete at 1,000,000
 * objects took 0.18 ms with collections of 64, 0.11 ms with 32 and 0.09 ms with 16; but each
 * `@msw/data` collection costs about 2 KB, 65 B per record at 32 and 130 B at 16.
 */
const CHUNK = 32;

/**
 * A record as `@msw/data` returns it: the record, carrying its internal primary key in symbol
 * properties, which is how `@msw/data` finds it again on update and delete. Pass records back
 * as they came; a copy has no key.
 */
export type Stored<T> = T;

// @note `@msw/data` does not export its record type; the shelf's own type stands for it.
type Chunk<T> = Collection<StandardSchemaV1<T, T>>;
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export type Predicate<T> = (query: Query<T>) => Query<T>;

/**
 * What the shelf hands `@msw/data`'s `create` in place of a record: the record's handover key, a
 * bare number.
 * @note Not an object: `create` copies its input into a fresh object before the schema sees it
 * (a walk with a set, a path array per key, an entry array), which for an object cost 5% of a
 * load; a number it passes through as it is.
 */
type Handover = number;

/**
 * A copy of JSON-shaped data: plain objects and arrays are copied, anything else is kept (as
 * `@msw/data`'s own copy of initial values does).
 * @note `@msw/data`'s `create` copies its input with a generic walk (property descriptors, entry
 * arrays, a path array per key), which was a third of the time of seeding; this copy is six times
 * faster and gives records of one shape, which V8 keeps in fast mode.
 */
export function copyOf<V>(value: V): V {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyOf(value[i]);
    return copy as V;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  // @note `for in` with `hasOwn`, not `Object.keys`: the same keys in the same order, without an
  // array per object copied (two per record of a load).
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = copyOf((value as Record<string, unknown>)[key]);
    // @note A JSON `__proto__` key is an own property; assigning it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = item;
  }
  return copy as V;
}

/**
 * The record a shelf is handing `@msw/data` right now, and its handover key.
 * @note `create` calls the schema's `validate` synchronously, before its first `await`, so the
 * record waits in one slot for the length of that call: no map of records on their way in (a
 * set and a delete per record, and rehashing as it emptied and filled, a tenth of the garbage of
 * a load). The key is checked, so a version of `@msw/data` that validated later would be refused
 * loudly ("No record was handed over"), never given the wrong record.
 */
interface Handing<T> {
  key: Handover;
  record: T | undefined;
}

/**
 * The schema the shelf's collections validate with. It checks nothing: every record is checked
 * before it gets here (the API validates request bodies, `load` validates the snapshot, `mock.db`
 * validates what a test writes), so a second Ajv pass per record would only double the cost of
 * seeding. On create it hands over the shelf's own copy of the record: `@msw/data` stores what
 * a schema outputs (a Standard Schema may transform its input), so the record is copied once, by
 * the shelf, instead of again by `@msw/data`.
 */
function adopting<T>(handing: Handing<T>): StandardSchemaV1<T, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'answers-mock-kit',
      validate: (value) => {
        if (typeof value !== 'number') return { value: value as T };
        const record = value === handing.key ? handing.record : undefined;
        handing.record = undefined;
        return record === undefined
          ? { issues: [{ message: 'No record was handed over' }] }
          : { value: record };
      },
    },
  };
}

/**
 * The `@msw/data` collection that holds a record, kept on the record under a symbol of the
 * shelf's own: not enumerable, so no JSON, `Object.keys`, spread or test equality sees it.
 * @note Not a map from id to collection: at a million objects, the lookup in a map per Answers
 * collection read two lines of memory that were in no cache, on every update and delete, besides
 * the record's own, and the map held an entry per record.
 */
const HOLDER = Symbol('answers-mock-kit shelf collection');
type Held<T> = { [HOLDER]?: Chunk<T> | undefined };

/** The descriptor of {@link HOLDER}, reused: not an object per record of a load. */
const HELD: PropertyDescriptor = { value: undefined, writable: true, configurable: true };

function hold<T>(record: T, chunk: Chunk<T>): void {
  HELD.value = chunk;
  Object.defineProperty(record, HOLDER, HELD);
  HELD.value = undefined;
}

const holderOf = <T>(record: T): Chunk<T> | undefined => (record as Held<T>)[HOLDER];

export class Shelf<T extends { id: string }> {
  #chunks: Array<Chunk<T>> = [];
  #size = 0;
  /** The record on its way into a collection (see {@link Handing}). */
  #handing: Handing<T> = { key: -1, record: undefined };
  #handovers = 0;
  #schema = adopting(this.#handing);
  /** Records given to the last collection, counting those still on their way in. */
  #tailFill = 0;
  /** Whether records are adopted when `@msw/data` allows it (see `record-marks.ts`). */
  #adopt: boolean;

  /**
   * @param options.adopt false to hand every record to `@msw/data`'s `create`, as is done anyway
   * until `recordMarks()` has resolved, or when this version of `@msw/data` keeps records
   * otherwise (for tests of that path).
   */
  constructor(options: { adopt?: boolean } = {}) {
    this.#adopt = options.adopt ?? true;
  }

  get size(): number {
    return this.#size;
  }

  /** Stores a copy of `values`; resolves to the stored record. */
  create(values: T): Promise<Stored<T>> {
    const { record, stored } = this.place(copyOf(values));
    return stored ?? Promise.resolve(record);
  }

  /**
   * Stores `record` itself, which the caller gives up (it must be the caller's own fresh copy).
   * `record` is the stored record from now on. `@msw/data` holds it on return when it is adopted
   * (`stored` is then undefined); otherwise once `stored` resolves.
   * @note Loads index the record at once and wait for many of these together.
   */
  place(record: T): { record: Stored<T>; stored: Promise<Stored<T>> | undefined } {
    let chunk = this.#chunks.at(-1);
    if (chunk === undefined || this.#tailFill >= CHUNK) {
      chunk = new Collection({ schema: this.#schema });
      this.#chunks.push(chunk);
      this.#tailFill = 0;
    }
    this.#tailFill += 1;
    this.#size += 1;
    hold(record, chunk);
    const marks = this.#adopt ? knownRecordMarks() : undefined;
    if (marks !== undefined) {
      // @note The id is the primary key: unique among live records, and already a string (no
      // UUID to build).
      (chunk.all() as T[]).push(markRecord(record, record.id, marks));
      return { record, stored: undefined };
    }
    const key: Handover = this.#handovers++;
    this.#handing.key = key;
    this.#handing.record = record;
    const stored = chunk.create(key as Any) as Promise<T>;
    // @note Cleared whatever `create` did, so the shelf never holds on to a record.
    this.#handing.record = undefined;
    return { record, stored };
  }

  async update(previous: Stored<T>, change: (draft: T) => void): Promise<Stored<T>> {
    const { chunk, stored } = this.#holderOf(previous) ?? {};
    if (chunk === undefined) throw new Error(`No record ${previous.id} to update`);
    const next = (await chunk.update(stored as Any, { data: change as Any, strict: true })) as T;
    hold(next, chunk);
    (stored as Held<T>)[HOLDER] = undefined;
    return next;
  }

  /**
   * The collection that holds `record` and the stored record: marked on it, or for a record that
   * is not the stored one (a copy, a record replaced by an update), found by its id.
   */
  #holderOf(record: T): { chunk: Chunk<T>; stored: Stored<T> } | undefined {
    const marked = holderOf(record);
    if (marked !== undefined) return { chunk: marked, stored: record };
    const id = record.id;
    for (const chunk of this.#chunks) {
      const stored = (chunk.all() as T[]).find((each) => each.id === id);
      if (stored !== undefined) return { chunk, stored };
    }
    return undefined;
  }

  delete(given: Stored<T>): void {
    const { chunk, stored: record } = this.#holderOf(given) ?? {};
    if (chunk === undefined || record === undefined) return;
    const records = chunk.all() as Array<Stored<T>>;
    // @note By identity in the collection's own array when records are adopted (the probe in
    // `record-marks.ts` checks that `@msw/data` then forgets the record): `delete` compares every
    // record's primary key on its way, two cache misses per record read in a large heap, and
    // builds a `MessageEvent` for hooks that the shelf's private collections never have. A
    // record that is not in the array as itself goes to `delete`, which looks for its key.
    const at = this.#adopt && knownRecordMarks() !== undefined ? records.indexOf(record) : -1;
    if (at === -1) chunk.delete(record as Any);
    else records.splice(at, 1);
    (record as Held<T>)[HOLDER] = undefined;
    this.#size -= 1;
    // @note An emptied collection other than the last (which takes new records) is dropped.
    if (chunk.count() === 0 && chunk !== this.#chunks.at(-1)) {
      this.#chunks.splice(this.#chunks.indexOf(chunk), 1);
    }
  }

  findFirst(predicate: Predicate<T>): Stored<T> | undefined {
    for (const chunk of this.#chunks) {
      const found = chunk.findFirst(predicate as Any);
      if (found !== undefined) return found as T;
    }
    return undefined;
  }

  findMany(predicate: Predicate<T>): Array<Stored<T>> {
    return this.#chunks.flatMap((chunk) => chunk.findMany(predicate as Any) as T[]);
  }

  all(): Array<Stored<T>> {
    return this.#chunks.flatMap((chunk) => chunk.all() as T[]);
  }
}
