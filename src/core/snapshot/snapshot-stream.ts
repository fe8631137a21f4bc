import { breathe } from '../primitives/breathe.ts';
import { compareByCreation, type Keyed } from '../primitives/creation-order.ts';
import type { MockState } from '../store/mock-state.ts';

/**
 * `GET /__mock/state` written a piece at a time: the same JSON document as
 * `JSON.stringify(state.export())`, byte for byte, without ever holding it as one string (at
 * 1,000,000 objects it passes V8's longest string) or a copy of the records.
 */

/** A piece ends once it holds this many UTF-16 code units or records (plus one record's JSON). */
const PIECE_CHARS = 256 * 1024;
const PIECE_RECORDS = 1_024;

/**
 * Records of lists each in creation order, in creation order overall: a k-way merge over a
 * binary heap of the lists' next records, so no list is copied or sorted again.
 */
export function* mergeByCreation<T extends Keyed>(
  lists: ReadonlyArray<readonly T[]>,
): Generator<T> {
  const at = lists.map(() => 0);
  // @note The heap holds indexes of the lists that have records left, least next record on top.
  const heap = lists.flatMap((list, i) => (list.length > 0 ? [i] : []));
  const head = (i: number) => lists[i]![at[i]!]!;
  const less = (a: number, b: number) => compareByCreation(head(heap[a]!), head(heap[b]!)) < 0;
  const swap = (a: number, b: number) => {
    [heap[a], heap[b]] = [heap[b]!, heap[a]!];
  };
  const down = (from: number) => {
    for (let i = from; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && less(left, least)) least = left;
      if (right < heap.length && less(right, least)) least = right;
      if (least === i) return;
      swap(i, least);
      i = least;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const list = heap[0]!;
    yield head(list);
    at[list] = at[list]! + 1;
    if (at[list] === lists[list]!.length) {
      heap[0] = heap.at(-1)!;
      heap.pop();
    }
    down(0);
  }
}

/** The state at one instant: small parts already written, records by reference. */
interface Capture {
  readonly head: string;
  readonly collections: ReadonlyArray<readonly Keyed[]>;
  readonly objects: ReadonlyArray<readonly Keyed[]>;
  readonly tail: string;
}

/**
 * Takes the state as it is now, in one synchronous step, copying references only: records are
 * replaced, never changed, on update, and a load swaps in a new store, so what is written later
 * is this instant's state whatever requests run meanwhile. The per-account and per-collection
 * lists are kept in creation order by the store, so the pieces merge them instead of sorting.
 */
function capture(state: MockState): Capture {
  const { store } = state;
  const all = [...store.allCollections()];
  const accounts = new Set(all.map((collection) => collection.account_id));
  return {
    head: `{"accounts":${JSON.stringify(store.accounts)},"api_keys":${JSON.stringify(store.apiKeys)},"collections":[`,
    collections: [...accounts].map((account) => store.collectionsOf(account).slice()),
    objects: all.map((collection) => store.objectsOf(collection.id).slice()),
    tail: `],"id_sequences":${JSON.stringify(state.ids.export())}}`,
  };
}

async function* write(state: Capture): AsyncGenerator<string, void, undefined> {
  let text = state.head;
  let records = 0;
  for (const [lists, after] of [
    [state.collections, '],"objects":['],
    [state.objects, state.tail],
  ] as const) {
    let first = true;
    for (const record of mergeByCreation(lists)) {
      text += first ? JSON.stringify(record) : `,${JSON.stringify(record)}`;
      first = false;
      if (++records % PIECE_RECORDS === 0 || text.length >= PIECE_CHARS) {
        yield text;
        text = '';
        await breathe();
      }
    }
    text += after;
  }
  yield text;
}

/**
 * The state's export as pieces of JSON, captured now (not when the first piece is asked for):
 * memory beyond the records is one piece and the lists of references, and the event loop runs
 * between pieces.
 */
export function snapshotPieces(state: MockState): AsyncIterable<string> {
  return write(capture(state));
}
