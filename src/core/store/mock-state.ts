import { Clock, toTimestamp } from './clock.ts';
import { CursorCodec } from '../primitives/cursor.ts';
import { AccountIds } from './id-sequence.ts';
import { checkingSnapshot, type Snapshot } from '../snapshot/snapshot.ts';
import { runInSlices } from '../primitives/slices.ts';
import type { ChangeListener } from './state-change.ts';
import {
  DEFAULT_MAX_OBJECTS,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_WORDS,
  wordLimit,
} from '../limits.ts';
import { exportStore } from './export-store.ts';
import { Store } from './store.ts';

/** The bounds API writes are held to: past one, a write is refused (507) before it is made. */
export interface StoreLimits {
  maxObjects: number;
  maxStoredBytes: number;
  /** Distinct search words: the vocabulary is a `Map`, which V8 caps at 2^24 entries. */
  maxWords: number;
}

/** The state every operation works on: data, clock, id sequence and cursor codec. */
export class MockState {
  /** Replaced whole by {@link load}, never seen half-built. */
  store = new Store();
  readonly clock = new Clock();
  readonly ids: AccountIds;
  readonly cursors: CursorCodec;
  #listener: ChangeListener | undefined;

  constructor(
    seed: number,
    readonly limits: StoreLimits = {
      maxObjects: DEFAULT_MAX_OBJECTS,
      maxStoredBytes: DEFAULT_MAX_STORED_BYTES,
      maxWords: DEFAULT_MAX_WORDS,
    },
  ) {
    this.ids = new AccountIds(seed);
    this.cursors = new CursorCodec(`answers-mock:${seed}`);
  }

  /**
   * Why a write that would add `objects` objects and `bytes` of stored JSON goes past the
   * limits, or undefined when there is room. Checked before anything is written; the operation
   * answers 507 with the reason (the model builds no HTTP answer).
   * @see docs/spec-gaps.md GAP-LIMIT-STORE
   */
  roomFor(objects: number, bytes: number): string | undefined {
    const { maxObjects, maxStoredBytes } = this.limits;
    if (this.store.objectTotal + objects > maxObjects)
      return `The mock holds its limit of ${maxObjects} objects; delete some, or raise --max-objects.`;
    if (this.store.storedBytes + bytes > maxStoredBytes)
      return `The mock holds its limit of ${maxStoredBytes} bytes of stored JSON; delete some, or raise --max-stored-bytes.`;
    return undefined;
  }

  /**
   * Why storing `content` (`size` its stored JSON) would take the search vocabulary past its
   * limit of distinct words, or undefined when there is room. Checked before anything is written,
   * as {@link roomFor}.
   * @note A string of n code units holds at most n words, so while the vocabulary is more than
   * the content's size below the limit nothing is counted: near it, the content's new words are
   * (one more pass over its words). Only new words count: the words a replace drops are not
   * subtracted, so near the limit a replace may be refused that would have fitted.
   */
  roomForWords(content: unknown, size: number): string | undefined {
    const maxWords = wordLimit(this.limits.maxWords);
    const { vocabulary } = this.store;
    if (vocabulary.size + size <= maxWords) return undefined;
    if (vocabulary.size + vocabulary.unknownWords(content) <= maxWords) return undefined;
    return `The mock holds its limit of ${maxWords} distinct search words; delete objects, or raise maxWords.`;
  }

  /**
   * Tells `listener` of every change from now on, in order (see {@link StateChange}); a load or
   * reset is one `replaced` change. One listener: a second call replaces the first.
   */
  listen(listener: ChangeListener | undefined): void {
    this.#listener = listener;
    this.store.onChange = listener;
  }

  /** The next timestamp (RFC 3339 UTC, ms), strictly after the previous one. */
  now(): string {
    return toTimestamp(this.clock.tick());
  }

  /** A fresh id that no live resource uses. @see docs/spec-gaps.md GAP-STATES (ids are never reused) */
  newId(accountId: string, prefix: 'col' | 'obj'): string {
    let id = this.ids.next(accountId, prefix);
    while (this.store.hasId(id)) id = this.ids.next(accountId, prefix);
    this.#listener?.({ type: 'ids', account: accountId, position: this.ids.positionOf(accountId) });
    return id;
  }

  /**
   * Replaces the data and the id sequences' positions with a (validated) snapshot's.
   * @param swapped What else changes with the data (a reset's clock), done in the same step.
   */
  load(snapshot: Snapshot, swapped?: () => void): Promise<void> {
    try {
      return this.replace(snapshot, swapped, false) ?? Promise.resolve();
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /**
   * Replaces the data and the id sequences' positions with `value`'s, checked first as
   * `parseSnapshot` checks it (unless `check` is false: a snapshot already checked).
   * @returns undefined when it was done in the call (a state of a few thousand records), else a
   * promise settled when it is done.
   * @throws SnapshotError in the call when the first slice finds the problem; later, the promise
   * rejects with it. Either way the data is as it was.
   */
  replace(value: unknown, swapped?: () => void, check = true): Promise<void> | undefined {
    // @note Built apart, in slices between which the event loop runs (`runInSlices`): requests,
    // static files and the control API are answered meanwhile from the data as it was, and
    // nothing sees a half-built store. A write answered meanwhile is replaced with the rest, as
    // if made just before the load: the journal records it, then the replacement. A state of up
    // to a slice is swapped in within the call, so a request sent after it sees it.
    return runInSlices(this.#rebuild(value, swapped, check));
  }

  *#rebuild(
    value: unknown,
    swapped: (() => void) | undefined,
    check: boolean,
  ): Generator<void, void> {
    const snapshot = check ? yield* checkingSnapshot(value) : (value as Snapshot);
    const fresh = new Store();
    yield* fresh.loading(snapshot, this.limits);
    // @note The swap: one synchronous step.
    this.store = fresh;
    this.ids.load(snapshot.id_sequences);
    swapped?.();
    fresh.onChange = this.#listener;
    this.#listener?.({ type: 'replaced' });
  }

  /** The data and where each account's id sequence stands, loadable with {@link load}. */
  export(): Snapshot {
    return { ...exportStore(this.store), id_sequences: this.ids.export() };
  }
}
