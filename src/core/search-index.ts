import type { ObjectRecord } from './records.ts';

const WORD = /[\p{L}\p{N}]+/gu;

/** Splits text into lower-case words (Unicode letters and digits). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

const termCache = new WeakMap<ObjectRecord, Map<string, number>>();

function collect(value: unknown, counts: Map<string, number>): void {
  if (typeof value === 'string') {
    for (const word of words(value)) counts.set(word, (counts.get(word) ?? 0) + 1);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, counts);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, counts);
  }
}

/**
 * How often each word occurs in the string values of an object's content. Records are immutable
 * (`@msw/data` replaces them on update), so the counts are cached per record.
 */
export function termCounts(record: ObjectRecord): Map<string, number> {
  let counts = termCache.get(record);
  if (!counts) {
    counts = new Map();
    collect(record.content, counts);
    termCache.set(record, counts);
  }
  return counts;
}

/**
 * The relevance of an object to the query words: the number of distinct query words it contains,
 * plus a bonus below 1 that grows with their occurrences. 0 means "not a hit".
 * @see docs/spec-gaps.md GAP-SEARCH-MATCH
 */
export function score(record: ObjectRecord, queryWords: readonly string[]): number {
  const counts = termCounts(record);
  let matched = 0;
  let occurrences = 0;
  for (const word of queryWords) {
    const count = counts.get(word);
    if (count) {
      matched += 1;
      occurrences += count;
    }
  }
  return matched === 0 ? 0 : matched + occurrences / (occurrences + 1);
}
