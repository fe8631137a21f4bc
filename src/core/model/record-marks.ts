import { Collection } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';

/**
 * The two symbol properties `@msw/data` puts on every record it creates: its primary key (how
 * its `update` and `delete` find the record again) and its map of relations.
 * @note `@msw/data` has no way to add many records at once, and its `create` is most of the
 * garbage of a load: a random UUID built by string concatenation, two loggers, a copy walk with
 * a set and arrays, a promise. At a million records that garbage is about half of the
 * collector's work, and the collector about a third of the load. A record carrying these two
 * properties, appended to the array `all()` returns (the collection's own array: its source
 * says so, "preserve exact record references"), is one `@msw/data` counts, finds, updates and
 * deletes as it does a record it created. The symbols are not exported, so they are read from a
 * probe record, and the probe checks every one of those behaviours before any record is adopted
 * this way; a version of `@msw/data` that behaves otherwise is given records through `create`.
 */
export interface RecordMarks {
  primaryKey: symbol;
  relationMap: symbol;
}

type Probed = { id: string } & Record<symbol, unknown>;
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const passThrough: StandardSchemaV1<Probed, Probed> = {
  '~standard': {
    version: 1,
    vendor: 'answers-mock-kit',
    validate: (value) => ({ value: value as Probed }),
  },
};

/**
 * The relation map of every adopted record. `@msw/data` writes to a record's map only when its
 * collection defines relations, and the shelf's collections are its own and define none, so the
 * map stays empty; a write throws rather than showing one record's relation on every record.
 * @note One map, not one per record as `create` makes: an empty `Map` is about 180 bytes, half
 * of what the store keeps per object beyond its JSON.
 */
class NoRelations extends Map<string, unknown> {
  override set(): this {
    throw new Error("The mock's @msw/data collections define no relations");
  }
}
const NO_RELATIONS: Map<string, unknown> = new NoRelations();

/** The descriptors of the two marks, reused: not two objects per record of a load. */
const KEY: PropertyDescriptor = { value: undefined };
const RELATIONS: PropertyDescriptor = { value: NO_RELATIONS };

/**
 * Gives `record` the marks `@msw/data`'s `create` gives a record, with `key` as its primary key,
 * defined as `create` defines them (not enumerable, not configurable, not writable), and the
 * shared empty relation map.
 */
export function markRecord<T extends object>(record: T, key: string, marks: RecordMarks): T {
  KEY.value = key;
  Object.defineProperty(record, marks.primaryKey, KEY);
  KEY.value = undefined;
  Object.defineProperty(record, marks.relationMap, RELATIONS);
  return record;
}

/**
 * Reads the marks from a record `collections` creates, and checks that a record given them and
 * appended to `all()` is counted, found, updated and deleted as a created one is, and is forgotten
 * once taken out of that array again; null if not.
 * @param collections `@msw/data`'s `Collection`, or a variant of it (for tests).
 */
export async function probeRecordMarks(
  collections: typeof Collection = Collection,
): Promise<RecordMarks | null> {
  try {
    const collection = new collections({ schema: passThrough });
    const created = await collection.create({ id: 'created' });
    const symbols = Object.getOwnPropertySymbols(created);
    const primaryKey = symbols.find((symbol) => symbol.description === 'kPrimaryKey');
    const relationMap = symbols.find((symbol) => symbol.description === 'kRelationMap');
    if (symbols.length !== 2 || primaryKey === undefined || relationMap === undefined) return null;
    if (typeof created[primaryKey] !== 'string' || !(created[relationMap] instanceof Map))
      return null;
    const marks = { primaryKey, relationMap };
    const records = collection.all() as Probed[];
    const adopted = markRecord({ id: 'adopted' }, 'adopted-key', marks);
    records.push(adopted);
    // @note Each check is one behaviour a load relies on; any other answer means this version
    // keeps its records otherwise, and `create` it is.
    if (collection.all() !== records || collection.count() !== 2) return null;
    if (collection.findFirst((q) => q.where((r: Any) => r.id === 'adopted')) !== adopted)
      return null;
    const updated = (await collection.update(adopted as Any, {
      data: (draft: Any) => {
        draft.id = 'updated';
      },
      strict: true,
    })) as Probed | undefined;
    if (updated?.id !== 'updated' || updated[primaryKey] !== 'adopted-key') return null;
    if (collection.all()[1] !== updated) return null;
    collection.delete(updated as Any);
    if (collection.count() !== 1 || collection.all()[0] !== created) return null;
    // The shelf deletes an adopted record by taking it out of the same array.
    const spliced = markRecord({ id: 'spliced' }, 'spliced-key', marks);
    records.push(spliced);
    if (collection.count() !== 2) return null;
    records.splice(records.indexOf(spliced), 1);
    if (collection.count() !== 1) return null;
    if (collection.findFirst((q) => q.where((r: Any) => r.id === 'spliced')) !== undefined)
      return null;
    return marks;
  } catch {
    return null;
  }
}

let probed: Promise<RecordMarks | null> | undefined;
let known: RecordMarks | null | undefined;

/** Reads the marks once per process; null when records cannot be adopted (see {@link RecordMarks}). */
export function recordMarks(): Promise<RecordMarks | null> {
  probed ??= probeRecordMarks().then((marks) => (known = marks));
  return probed;
}

/** The marks if {@link recordMarks} has resolved to them, else undefined (records go through `create`). */
export function knownRecordMarks(): RecordMarks | undefined {
  return known ?? undefined;
}
