/**
 * What ranking search hits speaks of: a hit's tally and its score, the reader hits come from,
 * the tie order and the page ranked.
 */
/**
 * A hit's tally: the distinct query words found in the document × `FOUND` + their occurrences.
 * Exact in a double as long as the occurrences stay below 2^32 and the words below 2^21.
 */
export const FOUND = 2 ** 32;

/**
 * The score of a tally: the words found, plus a bonus below 1 that grows with the occurrences.
 * @see docs/spec-gaps.md GAP-SEARCH-MATCH (and `score()` in search-index.ts, the definition)
 */
export function scoreOf(tally: number): number {
  const matched = Math.floor(tally / FOUND);
  const occurrences = tally - matched * FOUND;
  return matched + occurrences / (occurrences + 1);
}

/** The hits of a search, read in ascending document order, a chunk at a time. */
export interface HitReader {
  /**
   * Reads on, copying the next hits whose tally is above `floor` into `documents` and `tallies`
   * (at most their length, possibly none); the others are only counted. Returns how many it
   * copied.
   */
  read(documents: Int32Array, tallies: Float64Array, floor: number): number;
  /** True once every hit has been read. */
  readonly finished: boolean;
  /** How many hits have been read since the start, copied or not. */
  readonly count: number;
  /** Starts again from the first hit. */
  rewind(): void;
}

/** Compares two documents of equal score: negative when `a` ranks first. */
export type TieOrder = (a: number, b: number) => number;

/** A page of ranked hits and how many hits there were in all. */
export interface RankedPage {
  documents: number[];
  scores: number[];
  total: number;
}
