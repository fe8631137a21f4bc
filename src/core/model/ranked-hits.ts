/**
 * Ranking search hits: by score, highest first, then by a tie order (creation order), given as
 * document numbers. Hits are offered in ascending document order.
 * @see docs/spec-gaps.md GAP-SEARCH-RESP
 */

/** Calls `visit` with each hit, in ascending document order; can be run more than once. */
export type EachHit = (visit: (document: number, score: number) => void) => void;

/** Compares two documents of equal score: negative when `a` ranks first. */
export type TieOrder = (a: number, b: number) => number;

/** A page of ranked hits and how many hits there were in all. */
export interface RankedPage {
  documents: number[];
  scores: number[];
  total: number;
}

/**
 * The first `keep` hits in rank order, kept in a small sorted array: a hit that does not make it
 * costs one comparison, so a common word's many hits cost little more than reading them.
 */
export function topHits(each: EachHit, keep: number, tie: TieOrder): RankedPage {
  const documents: number[] = [];
  const scores: number[] = [];
  let total = 0;
  each((document, score) => {
    total += 1;
    const last = documents.length - 1;
    if (last + 1 === keep) {
      const worst = scores[last]!;
      if (score < worst || (score === worst && tie(document, documents[last]!) > 0)) return;
    }
    // The first kept hit this one ranks before.
    let low = 0;
    let high = documents.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = scores[mid]!;
      if (other < score || (other === score && tie(documents[mid]!, document) > 0)) high = mid;
      else low = mid + 1;
    }
    documents.splice(low, 0, document);
    scores.splice(low, 0, score);
    if (documents.length > keep) {
      documents.pop();
      scores.pop();
    }
  });
  return { documents, scores, total };
}

/**
 * The hits at ranks `offset .. offset + limit`, for deep pages, when the tie order is document
 * order: a first pass counts the hits of each score, which places every score's hits in the
 * ranking; a second pass keeps those that fall in the page, read in document order (tie order).
 * @note Sorting every hit instead cost about 250 ms for a common word at a million objects.
 */
export function pageOfHits(each: EachHit, offset: number, limit: number): RankedPage {
  const perScore = new Map<number, number>();
  let total = 0;
  each((_, score) => {
    total += 1;
    perScore.set(score, (perScore.get(score) ?? 0) + 1);
  });
  // For each score with hits in the page, which of its hits (by tie order) are in it.
  const wanted = new Map<number, { from: number; to: number; seen: number }>();
  let rank = 0;
  for (const score of [...perScore.keys()].sort((a, b) => b - a)) {
    const count = perScore.get(score)!;
    const from = Math.max(offset - rank, 0);
    const to = Math.min(offset + limit - rank, count);
    if (from < to) wanted.set(score, { from, to, seen: 0 });
    rank += count;
    if (rank >= offset + limit) break;
  }
  const hits: Array<[number, number]> = [];
  if (wanted.size > 0) {
    each((document, score) => {
      const range = wanted.get(score);
      if (range === undefined) return;
      if (range.seen >= range.from && range.seen < range.to) hits.push([document, score]);
      range.seen += 1;
    });
  }
  hits.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return { documents: hits.map((hit) => hit[0]), scores: hits.map((hit) => hit[1]), total };
}

/** Every hit sorted, then the page: for a tie order that is not document order. */
export function sortedHits(
  each: EachHit,
  offset: number,
  limit: number,
  tie: TieOrder,
): RankedPage {
  const hits: Array<[number, number]> = [];
  each((document, score) => hits.push([document, score]));
  hits.sort((a, b) => b[1] - a[1] || tie(a[0], b[0]));
  const page = hits.slice(offset, offset + limit);
  return {
    documents: page.map((hit) => hit[0]),
    scores: page.map((hit) => hit[1]),
    total: hits.length,
  };
}
