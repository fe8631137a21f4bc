import { MAX_JSON_DEPTH } from '../limits.ts';
import { nestsDeeperThan, nonFiniteNumberAt } from '../json-limits.ts';
import { compileSchema, schemaErrorLine } from '../../openapi/ajv.ts';
import {
  collectionRecordSchema,
  objectRecordSchema,
  type Account,
  type CollectionRecord,
  type ObjectRecord,
} from '../store/records.ts';
import type { ApiKey } from '../api-key.ts';
import { isDateTime, TIMESTAMP_PATTERN } from './timestamp-check.ts';

/**
 * Everything a mock holds, as plain JSON: what `GET /__mock/state` and `controls.export()` write,
 * and what `load`, `--fixture`, `--state-file` and `initialState` read.
 */
export interface Snapshot {
  accounts: Account[];
  api_keys: ApiKey[];
  collections: CollectionRecord[];
  objects: ObjectRecord[];
  /**
   * Where each account's id sequence stands, so ids continue after a restart instead of being
   * handed out again. Optional: an account without one starts from the mock's seed.
   */
  id_sequences?: Record<string, number> | undefined;
}

/** A snapshot (fixture file, `--state-file`, `PUT /__mock/state`, `load`) that cannot be loaded. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

/** The mock's limit a state can pass: its option's name in `createMock`. */
export type StateLimit = 'maxObjects' | 'maxStoredBytes' | 'maxWords';

/**
 * A state that holds more than one of the mock's limits allows (objects, stored JSON, distinct
 * search words): refused as it is built, before the limit is passed, and the data stays as it
 * was. A {@link SnapshotError}, so whatever refuses an invalid state refuses this one too.
 */
export class SnapshotLimitError extends SnapshotError {
  override name = 'SnapshotLimitError';
  constructor(
    /** The limit passed. */
    readonly limit: StateLimit,
    /** Its value in this mock. */
    readonly bound: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A record schema whose timestamps are checked by `openapi.yaml`'s `Timestamp` pattern alone:
 * {@link parseSnapshot} then checks the calendar itself ({@link isDateTime}), which is what the
 * `date-time` format adds to the pattern, for a fraction of its cost.
 */
function timestampsByPattern(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown>;
  const timestamp = { type: 'string', pattern: TIMESTAMP_PATTERN };
  return {
    ...schema,
    properties: { ...properties, created_at: timestamp, updated_at: timestamp },
  };
}

// @note No field the API does not know, at any level: a misspelt field is refused by name rather
// than dropped without a word (the records' schemas say the same: store/records.ts).
const validateState = compileSchema({
  type: 'object',
  additionalProperties: false,
  required: ['accounts', 'api_keys', 'collections', 'objects'],
  properties: {
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 64 },
          name: { type: 'string' },
        },
      },
    },
    api_keys: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'account_id', 'permissions', 'active'],
        properties: {
          key: { type: 'string', pattern: '^[A-Za-z0-9\\-._~+/]{1,512}=*$' },
          account_id: { type: 'string' },
          permissions: {
            type: 'array',
            uniqueItems: true,
            items: { enum: ['read', 'write', 'search'] },
          },
          active: { type: 'boolean' },
          label: { type: 'string' },
        },
      },
    },
    // @note Their records are checked one by one (`validateRecord`), a slice at a time.
    collections: { type: 'array' },
    objects: { type: 'array' },
    id_sequences: {
      type: 'object',
      additionalProperties: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
    },
  },
});

const validateRecord = {
  collections: compileSchema(timestampsByPattern(collectionRecordSchema)),
  objects: compileSchema(timestampsByPattern(objectRecordSchema)),
};

/** Records checked between two yields of {@link checkingSnapshot}. */
const SLICE = 2_048;

/**
 * Checks a state before it replaces the mock's data: its shape (the record schemas come from
 * `openapi.yaml`) and its references (keys and collections name existing accounts, collection ids
 * and names are unique). Returns the same value, typed: nothing is copied (the store copies each
 * record as it loads it). The objects' references (an existing collection of the same account,
 * ids unique) are checked by `Store.load`, which throws the same {@link SnapshotError}.
 */
export function parseSnapshot(value: unknown): Snapshot {
  const checking = checkingSnapshot(value);
  let step = checking.next();
  while (step.done !== true) step = checking.next();
  return step.value;
}

/**
 * {@link parseSnapshot} in slices: yields every few thousand records, so a reset or load can let
 * the event loop run while it checks a large state (`runInSlices`); returns the snapshot.
 */
export function* checkingSnapshot(value: unknown): Generator<void, Snapshot> {
  if (!validateState(value)) throw invalid(validateState.errors?.[0]);
  const state = value as Snapshot;
  for (const name of ['collections', 'objects'] as const) {
    const records: unknown[] = state[name];
    const validate = validateRecord[name];
    for (let i = 0; i < records.length; i++) {
      if (!validate(records[i])) throw invalid(validate.errors?.[0], `/${name}/${i}`);
      checkTimestamps(name, i, state[name][i]!);
      // @note JSON.parse reads 1e400 as Infinity, which the schema's "number" admits; the API
      // refuses it, so loading does too (it would be served as null).
      const overflow = nonFiniteNumberAt(records[i]);
      if (overflow !== undefined)
        throw new SnapshotError(
          `Invalid state: /${name}/${i}${overflow === '/' ? '' : overflow} is too large a number to store`,
        );
      if ((i + 1) % SLICE === 0) yield;
    }
  }
  const overflow = nonFiniteNumberAt({ accounts: state.accounts, api_keys: state.api_keys });
  if (overflow !== undefined)
    throw new SnapshotError(`Invalid state: ${overflow} is too large a number to store`);
  const accounts = new Set(state.accounts.map((a) => a.id));
  const keys = new Set<string>();
  for (const key of state.api_keys) {
    if (!accounts.has(key.account_id))
      throw new SnapshotError(`API key of unknown account "${key.account_id}"`);
    if (keys.has(key.key)) throw new SnapshotError('The same API key appears twice');
    keys.add(key.key);
  }
  const collections = new Set<string>();
  const names = new Set<string>();
  for (const collection of state.collections) {
    if (!accounts.has(collection.account_id)) {
      throw new SnapshotError(
        `Collection "${collection.id}" belongs to unknown account "${collection.account_id}"`,
      );
    }
    if (collections.has(collection.id))
      throw new SnapshotError(`Duplicate collection id "${collection.id}"`);
    const name = `${collection.account_id}\u0000${collection.name}`;
    if (names.has(name))
      throw new SnapshotError(
        `Duplicate collection name "${collection.name}" in account "${collection.account_id}"`,
      );
    names.add(name);
    collections.add(collection.id);
  }
  // @note An object's collection and the uniqueness of its id are checked by the store as it
  // loads the object (`Store.load`), where objects are grouped by collection and the ids go into
  // the store's own map anyway: a second set of every id here cost a tenth of a load.
  const { objects } = state;
  for (let i = 0; i < objects.length; i++) {
    if ((i + 1) % SLICE === 0) yield;
    const object = objects[i]!;
    // @note The same limit as request bodies: deeper content would break export and PATCH.
    if (nestsDeeperThan(object.content, MAX_JSON_DEPTH - 1)) {
      throw new SnapshotError(
        `Object "${object.id}" nests its content deeper than the API accepts`,
      );
    }
  }
  return state;
}

/** The error for a schema error of ajv's, at `at` (a record's pointer) and below. */
function invalid(
  error: { instancePath?: string; message?: string } | undefined,
  at = '',
): SnapshotError {
  return new SnapshotError(`Invalid state: ${schemaErrorLine(error, at)}`);
}

/** Throws, as the `date-time` format would, when a timestamp of record `i` is no calendar instant. */
function checkTimestamps(
  name: 'collections' | 'objects',
  i: number,
  { created_at, updated_at }: { created_at: string; updated_at: string },
): void {
  const field = !isDateTime(created_at)
    ? 'created_at'
    : !isDateTime(updated_at)
      ? 'updated_at'
      : undefined;
  if (field !== undefined)
    throw new SnapshotError(`Invalid state: /${name}/${i}/${field} must match format "date-time"`);
}
