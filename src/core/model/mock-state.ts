import { Clock, toTimestamp } from './clock.ts';
import { CursorCodec } from './cursor.ts';
import { IdSequence } from './id-sequence.ts';
import { Store } from './store.ts';

/** The state every operation works on: data, clock, id sequence and cursor codec. */
export class MockState {
  readonly store = new Store();
  readonly clock = new Clock();
  readonly ids: IdSequence;
  readonly cursors: CursorCodec;

  constructor(seed: number) {
    this.ids = new IdSequence(seed);
    this.cursors = new CursorCodec(`answers-mock:${seed}`);
  }

  /** The next timestamp (RFC 3339 UTC, ms), strictly after the previous one. */
  now(): string {
    return toTimestamp(this.clock.tick());
  }

  /** A fresh id that no live resource uses. @see docs/spec-gaps.md GAP-STATES (ids are never reused) */
  newId(prefix: 'col' | 'obj'): string {
    let id = this.ids.next(prefix);
    while (this.store.hasId(id)) id = this.ids.next(prefix);
    return id;
  }
}
