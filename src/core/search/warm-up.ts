import type { ObjectRecord } from '../store/records.ts';
import type { WordIds } from './search-index.ts';

/** What the warm-up asks of an index (the inverted index, made by its caller). */
interface Searchable {
  add(record: ObjectRecord): number;
  search(
    query: readonly number[],
    collectionIds: readonly string[],
    offset: number,
    limit: number,
  ): unknown;
}

/** The words of the warm-up's documents. */
const WARM_WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember'];

/**
 * Runs each kind of search (one word and several, shallow and deep pages, documents in and out
 * of creation order) over small private indexes, so that V8 has optimised the ranking code
 * before the first search over a large index.
 * @note Unwarmed, the first search at a million objects ran its loops unoptimised: several times
 * its later figure. This costs a few milliseconds, once a process, while a large store loads.
 */
export function warmUp(makeIndex: (words: WordIds) => Searchable): void {
  const ids = new Map<string, number>();
  const intern = (word: string) => {
    let id = ids.get(word);
    if (id === undefined) ids.set(word, (id = ids.size));
    return id;
  };
  const words: WordIds = {
    use: intern,
    intern,
    addUse: () => undefined,
    get idLimit() {
      return ids.size;
    },
    idOf: (word) => ids.get(word),
    release: () => false,
    forgetUnused: () => undefined,
  };
  const collections = ['col_0', 'col_1', 'col_2'];
  const some = collections.slice(0, 2);
  // @note In creation order, with deep pages; out of it (another tie order), a first page.
  for (const [size, inOrder, offset] of [
    [1_500, true, 1_000],
    [300, false, 0],
  ] as const) {
    const index = makeIndex(words);
    const start = Date.UTC(2026, 0, 1);
    for (let n = 0; n < size; n++) {
      const at = new Date(start + (inOrder ? n : (n * 7_919) % size)).toISOString();
      index.add({
        id: `obj_${n}`,
        account_id: 'warm-up',
        collection_id: collections[n % 3]!,
        content: { text: WARM_WORDS.filter((_, w) => (n + w) % (w + 2) !== 0).join(' ') },
        created_at: at,
        updated_at: at,
        version: 1,
      });
    }
    const query = WARM_WORDS.map((word) => ids.get(word)!);
    for (let round = 0; round < 2; round++) {
      for (const from of [0, offset]) {
        index.search(query.slice(0, 1), some, from, 10);
        index.search(query, some, from, 10);
      }
    }
  }
}
