import type { ObjectRecord } from './records.ts';

const WORD = /[\p{L}\p{N}]+/gu;

/** Splits text into lower-case words (Unicode letters and digits). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * Every word ever indexed, numbered. Shared by all mocks: it only interns words (it grows with the
 * number of distinct words, not with the number of objects).
 */
const vocabulary = new Map<string, number>();

function idOf(word: string): number {
  let id = vocabulary.get(word);
  if (id === undefined) vocabulary.set(word, (id = vocabulary.size));
  return id;
}

function collect(value: unknown, out: number[]): void {
  if (typeof value === 'string') {
    const found = value.toLowerCase().match(WORD);
    if (found) for (const word of found) out.push(idOf(word));
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, out);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, out);
  }
}

const terms = new WeakMap<ObjectRecord, Uint32Array>();

/**
 * The words of the string values of an object's content as sorted word ids, one entry per
 * occurrence. Computed once per record when the store indexes it (records are immutable:
 * `@msw/data` replaces them on update).
 * @note A typed array per object costs about 4 bytes a word; a `Map` or `Set` per object would
 * cost more than a kilobyte each at a million objects, and scanning strings is slower.
 */
export function termsOf(record: ObjectRecord): Uint32Array {
  let ids = terms.get(record);
  if (ids === undefined) {
    const found: number[] = [];
    collect(record.content, found);
    ids = Uint32Array.from(found).sort();
    terms.set(record, ids);
  }
  return ids;
}

/** The word ids of a query's distinct words; words never indexed cannot match and are left out. */
export function queryTerms(queryWords: readonly string[]): number[] {
  const ids: number[] = [];
  for (const word of new Set(queryWords)) {
    const id = vocabulary.get(word);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** Index of the first entry >= `id` in a sorted array. */
function lowerBound(ids: Uint32Array, id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[mid]! < id) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The relevance of an object to the query: the number of distinct query words it contains, plus a
 * bonus below 1 that grows with their occurrences. 0 means "not a hit".
 * @see docs/spec-gaps.md GAP-SEARCH-MATCH
 */
export function score(record: ObjectRecord, query: readonly number[]): number {
  const ids = termsOf(record);
  let matched = 0;
  let occurrences = 0;
  for (const id of query) {
    const first = lowerBound(ids, id);
    if (ids[first] !== id) continue;
    matched += 1;
    occurrences += lowerBound(ids, id + 1) - first;
  }
  return matched === 0 ? 0 : matched + occurrences / (occurrences + 1);
}
