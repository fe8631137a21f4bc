import type { Snapshot } from './snapshot.ts';
import type { StateChange } from '../store/state-change.ts';
import type { Account, CollectionRecord, ObjectRecord } from '../store/records.ts';
import type { ApiKey } from '../api-key.ts';

/**
 * The lines of a state file (JSON Lines, one JSON object per line). A file is a base line (the
 * accounts, keys and id sequences, and no data), then records and changes, replayed in order:
 *
 *   {"answers_mock_state":1,"accounts":[…],"api_keys":[…],"id_sequences":{…}}
 *   {"collection":{…}}           a collection as it now is (created or changed)
 *   {"object":{…}}               an object as it now is
 *   {"collection_deleted":"col_…"}   gone, with its objects
 *   {"object_deleted":"obj_…"}
 *   {"ids":["acc_…",123]}        where an account's id sequence stands
 *
 * A compacted file is the base and one line per record; changes are appended after it. Every
 * line says what a record is, not how it changed, so a line replayed twice changes nothing.
 */
const FORMAT_VERSION = 1;

export interface BaseLine {
  answers_mock_state: number;
  accounts: Account[];
  api_keys: ApiKey[];
  id_sequences: Record<string, number>;
}

export function baseLine(state: Omit<BaseLine, 'answers_mock_state'>): string {
  return `${JSON.stringify({
    answers_mock_state: FORMAT_VERSION,
    accounts: state.accounts,
    api_keys: state.api_keys,
    id_sequences: state.id_sequences,
  })}\n`;
}

/** The line of one change (not `replaced`, which starts a new file instead). */
export function changeLine(change: Exclude<StateChange, { type: 'replaced' }>): string {
  switch (change.type) {
    case 'collection':
      return `{"collection":${JSON.stringify(change.record)}}\n`;
    case 'object':
      return `{"object":${JSON.stringify(change.record)}}\n`;
    case 'collection-deleted':
      return `{"collection_deleted":${JSON.stringify(change.id)}}\n`;
    case 'object-deleted':
      return `{"object_deleted":${JSON.stringify(change.id)}}\n`;
    case 'ids':
      return `{"ids":${JSON.stringify([change.account, change.position])}}\n`;
  }
}

/** A line that cannot be replayed; `line` is 1-based. */
export class StateLineError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Rebuilds a snapshot from lines applied in order. Records are checked here only for what replay
 * needs (an id, a collection id); the snapshot it yields is validated like any other before it
 * is loaded, so a file accepts exactly what a fixture would.
 */
export class Replay {
  #base: BaseLine | undefined;
  readonly #collections = new Map<string, CollectionRecord>();
  readonly #objects = new Map<string, ObjectRecord>();
  readonly #objectsOf = new Map<string, Set<string>>();
  #line = 0;

  /** Applies one line (without its newline). */
  apply(text: string): void {
    const line = ++this.#line;
    if (text.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch (error) {
      throw new StateLineError(line, `not JSON (${(error as Error).message})`);
    }
    if (!isObject(entry)) throw new StateLineError(line, 'not a JSON object');
    if (this.#base === undefined) {
      if (entry['answers_mock_state'] !== FORMAT_VERSION)
        throw new StateLineError(line, `not a state file of format ${FORMAT_VERSION}`);
      this.#base = {
        answers_mock_state: FORMAT_VERSION,
        accounts: entry['accounts'] as Account[],
        api_keys: entry['api_keys'] as ApiKey[],
        id_sequences: isObject(entry['id_sequences'])
          ? { ...(entry['id_sequences'] as Record<string, number>) }
          : {},
      };
      return;
    }
    const keys = Object.keys(entry);
    if (keys.length !== 1) throw new StateLineError(line, 'expected exactly one member');
    const kind = keys[0]!;
    const payload = entry[kind];
    switch (kind) {
      case 'collection': {
        const record = this.#record(line, payload) as CollectionRecord;
        this.#collections.set(record.id, record);
        return;
      }
      case 'object': {
        const record = this.#record(line, payload) as ObjectRecord;
        if (typeof record.collection_id !== 'string')
          throw new StateLineError(line, 'an object needs a collection_id');
        this.#objects.set(record.id, record);
        let ids = this.#objectsOf.get(record.collection_id);
        if (!ids) this.#objectsOf.set(record.collection_id, (ids = new Set()));
        ids.add(record.id);
        return;
      }
      case 'collection_deleted': {
        const id = this.#id(line, payload);
        this.#collections.delete(id);
        for (const objectId of this.#objectsOf.get(id) ?? []) this.#objects.delete(objectId);
        this.#objectsOf.delete(id);
        return;
      }
      case 'object_deleted': {
        const id = this.#id(line, payload);
        const record = this.#objects.get(id);
        if (record) this.#objectsOf.get(record.collection_id)?.delete(id);
        this.#objects.delete(id);
        return;
      }
      case 'ids': {
        if (
          !Array.isArray(payload) ||
          typeof payload[0] !== 'string' ||
          !Number.isInteger(payload[1])
        )
          throw new StateLineError(line, 'ids must be [account id, position]');
        this.#base.id_sequences[payload[0] as string] = payload[1] as number;
        return;
      }
      default:
        throw new StateLineError(line, `unknown entry ${JSON.stringify(kind)}`);
    }
  }

  #record(line: number, payload: unknown): { id: string } {
    if (!isObject(payload) || typeof payload['id'] !== 'string')
      throw new StateLineError(line, 'a record needs an id');
    return payload as { id: string };
  }

  #id(line: number, payload: unknown): string {
    if (typeof payload !== 'string') throw new StateLineError(line, 'expected an id');
    return payload;
  }

  /** The state the lines describe, or undefined when there was no base line. */
  snapshot(): Snapshot | undefined {
    if (!this.#base) return undefined;
    const { accounts, api_keys, id_sequences } = this.#base;
    return {
      accounts,
      api_keys,
      collections: [...this.#collections.values()],
      objects: [...this.#objects.values()],
      id_sequences,
    };
  }
}

/** Whether a text starts as a state file does: its base line, not a plain JSON document. */
export function isStateLines(text: string): boolean {
  return text.replace(/^\uFEFF/, '').startsWith('{"answers_mock_state":');
}

/**
 * The state a whole state file's text describes (what `--state-file` writes), for a state handed
 * over as text: `--fixture FILE` and `PUT /__mock/state`. A last line without its newline is
 * applied too: a file copied whole is complete, and a line cut short fails as any bad line does.
 */
export function stateOfLines(text: string): Snapshot {
  const replay = new Replay();
  for (const line of text.replace(/^\uFEFF/, '').split('\n')) replay.apply(line.replace(/\r$/, ''));
  const snapshot = replay.snapshot();
  if (!snapshot) throw new StateLineError(1, 'no base line');
  return snapshot;
}
