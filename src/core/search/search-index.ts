import { firstIndex } from '../primitives/binary-search.ts';

/**
 * What the word functions and the inverted index need of a vocabulary (vocabulary.ts): word ids,
 * counted by use. Named here rather than imported: the vocabulary owns the inverted index, so an
 * import would close a cycle.
 */
export interface WordIds {
  use(word: string): number;
  /** The id of a word, numbered if new, without counting a use; {@link addUse} counts it. */
  intern(word: string): number;
  addUse(id: number): void;
  /** Every id in use is below this. */
  readonly idLimit: number;
  idOf(word: string): number | undefined;
  /** Drops one use of the word `id`; true when it was the last. */
  release(id: number): boolean;
  /** Forgets the word `id` if it has no use (numbered by a write that then failed). */
  forgetUnused(id: number): void;
}

/**
 * The ids of `words`, numbering the new ones; all or none: a vocabulary at V8's map cap throws,
 * and then the words numbered so far are given back before the error goes on.
 */
export function internAll(vocabulary: WordIds, words: Iterable<string>): number[] {
  const ids: number[] = [];
  try {
    for (const word of words) ids.push(vocabulary.intern(word));
  } catch (error) {
    for (const id of ids) vocabulary.forgetUnused(id);
    throw error;
  }
  return ids;
}

const WORD = /[\p{L}\p{N}]+/gu;
const NOT_ASCII = /[^\0-\x7f]/;

/** Splits text into lower-case words (Unicode letters and digits). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * The most distinct words the mock searches for in one query: a limit of the mock, not of the
 * contract. A query's cost grows with its words' posting lists: at a million objects, 16 of the
 * commonest words stay within the search's time budget, 32 do not (docs/performance.md).
 * @see docs/spec-gaps.md GAP-SEARCH-WORDS
 */
export const MAX_QUERY_WORDS = 16;

/** The distinct words of a query, in order of first appearance ("Refund refund" is one word). */
export function distinctWords(query: string): string[] {
  return [...new Set(words(query))];
}

/** Calls `visit` with each word of each string value in `value`, in order. */
export function eachWord(value: unknown, visit: (word: string) => void): void {
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (!NOT_ASCII.test(lower)) {
      eachAsciiWord(lower, visit);
      return;
    }
    const found = lower.match(WORD);
    if (found) for (const word of found) visit(word);
  } else if (Array.isArray(value)) {
    for (const item of value) eachWord(item, visit);
  } else if (value && typeof value === 'object') {
    // @note `for in`, not `Object.values`: no array per object (JSON content has no inherited
    // enumerable keys, and `hasOwn` keeps it so if someone adds one to Object.prototype).
    for (const key in value) {
      if (Object.hasOwn(value, key)) eachWord((value as Record<string, unknown>)[key], visit);
    }
  }
}

/**
 * Calls `visit` with each word of lower-case ASCII `text`: in ASCII, the Unicode letters and
 * digits are exactly a-z and 0-9 once lower-cased.
 * @note A scan, not `match`: no array of words per string and no iterator over it, which were a
 * sixth of the garbage of a load; and a string that is one whole word is passed as it is.
 */
function eachAsciiWord(text: string, visit: (word: string) => void): void {
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      visit(text.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) visit(start === 0 ? text : text.slice(start));
}

/**
 * The words of the string values of an object's content, each with its number of occurrences:
 * what the search index holds of an object.
 * @see docs/spec-gaps.md GAP-SEARCH-MATCH
 */
export function countWords(content: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  eachWord(content, (word) => counts.set(word, (counts.get(word) ?? 0) + 1));
  return counts;
}

/**
 * The words of the string values of an object's content as sorted word ids, one entry per
 * occurrence, packed two UTF-16 code units per id (high 16 bits, then low): the naive
 * definition of search, object by object, which {@link score} reads. The mock's search uses the
 * inverted index (`inverted-index.ts`); this stays as the definition it is tested against, and
 * for scoring a lone object outside a store.
 */
export function packTerms(content: unknown, vocabulary: WordIds): string {
  const found: number[] = [];
  eachWord(content, (word) => found.push(vocabulary.use(word)));
  found.sort((a, b) => a - b);
  const units: number[] = [];
  for (const id of found) units.push(id >>> 16, id & 0xffff);
  // @note Built in bounded chunks joined once: appending piece by piece would keep a rope of
  // pieces, and one spread of a large object's words would overflow the call stack.
  const chunks: string[] = [];
  for (let i = 0; i < units.length; i += 8_192) {
    chunks.push(String.fromCharCode(...units.slice(i, i + 8_192)));
  }
  return chunks.join('');
}

/** The id at position `index` of a packed terms string. */
function idAt(packed: string, index: number): number {
  return packed.charCodeAt(2 * index) * 0x10000 + packed.charCodeAt(2 * index + 1);
}

/** The word ids of a query's distinct words; words never indexed cannot match and are left out. */
export function queryTerms(queryWords: readonly string[], vocabulary: WordIds): number[] {
  const ids: number[] = [];
  for (const word of new Set(queryWords)) {
    const id = vocabulary.idOf(word);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** Index of the first id >= `id` in a packed terms string. */
function lowerBound(packed: string, id: number): number {
  return firstIndex(packed.length / 2, (index) => idAt(packed, index) >= id);
}

/**
 * The relevance of an object to the query: the number of distinct query words it contains, plus a
 * bonus below 1 that grows with their occurrences. 0 means "not a hit".
 * @see docs/spec-gaps.md GAP-SEARCH-MATCH
 */
export function score(packed: string, query: readonly number[]): number {
  let matched = 0;
  let occurrences = 0;
  for (const id of query) {
    const first = lowerBound(packed, id);
    if (2 * first >= packed.length || idAt(packed, first) !== id) continue;
    matched += 1;
    occurrences += lowerBound(packed, id + 1) - first;
  }
  return matched === 0 ? 0 : matched + occurrences / (occurrences + 1);
}
