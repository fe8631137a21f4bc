/**
 * The ranking of a deep page (past the shallow bound of `rankHits`): the hits of each score are
 * counted first, which places every score's hits in the ranking; the second pass keeps only the
 * hits the page wants.
 */
import { FOUND, scoreOf, type RankedPage, type TieOrder } from './tally.ts';

/** Tallies of up to this many words and occurrences are counted in an array, others in a map. */
const SMALL = 64;

/** The slot of a small tally in {@link ScoreGroups}' array, or -1. */
function slotOf(tally: number): number {
  const matched = Math.floor(tally / FOUND);
  const occurrences = tally - matched * FOUND;
  return matched < SMALL && occurrences < SMALL ? matched * SMALL + occurrences : -1;
}

/**
 * How many hits there are of each tally, which places every score's hits in the ranking.
 * @note Counted by tally, an integer, in an array for the usual small ones: a map keyed by score
 * was the slowest step for a common word at a million objects. Tallies of equal score are
 * one group (the score of a tally is exact in a double, but two huge occurrence counts could
 * round to one score): the ranking is by score.
 */
export class ScoreGroups {
  readonly #small = new Int32Array(SMALL * SMALL);
  readonly #large = new Map<number, number>();

  count(tallies: Float64Array, count: number): void {
    const small = this.#small;
    for (let i = 0; i < count; i++) {
      const tally = tallies[i]!;
      const slot = slotOf(tally);
      if (slot >= 0) small[slot]! += 1;
      else this.#large.set(tally, (this.#large.get(tally) ?? 0) + 1);
    }
  }

  /**
   * Which hits of which scores fall in ranks `offset .. offset + limit`: by document order
   * within a score when `inDocumentOrder` (the ranks are then known), else all of those scores.
   */
  plan(offset: number, limit: number, inDocumentOrder: boolean): PageOfHits {
    const counted: Array<[tally: number, hits: number]> = [...this.#large];
    for (let slot = 0; slot < this.#small.length; slot++) {
      const hits = this.#small[slot]!;
      if (hits > 0) counted.push([Math.floor(slot / SMALL) * FOUND + (slot % SMALL), hits]);
    }
    counted.sort((a, b) => b[0] - a[0]);
    // Each group of equal score, ranked; for those in the page, which of their hits are in it.
    const groups: PageGroup[] = [];
    const bySlot: Array<PageGroup | undefined> = Array.from({ length: SMALL * SMALL });
    const large = new Map<number, PageGroup>();
    let rank = 0;
    for (let i = 0; i < counted.length && rank < offset + limit;) {
      const score = scoreOf(counted[i]![0]);
      const tallies: number[] = [];
      let hits = 0;
      for (; i < counted.length && scoreOf(counted[i]![0]) === score; i++) {
        tallies.push(counted[i]![0]);
        hits += counted[i]![1];
      }
      const from = inDocumentOrder ? Math.max(offset - rank, 0) : 0;
      const to = inDocumentOrder ? Math.min(offset + limit - rank, hits) : hits;
      if (rank + hits > offset) {
        const group: PageGroup = { rank, score, from, to, seen: 0, documents: [] };
        groups.push(group);
        for (const tally of tallies) {
          const slot = slotOf(tally);
          if (slot >= 0) bySlot[slot] = group;
          else large.set(tally, group);
        }
      }
      rank += hits;
    }
    return new PageOfHits(groups, bySlot, large);
  }
}

/** The hits of one score in a page: ranked from `rank`; those of its `from .. to` are wanted. */
interface PageGroup {
  rank: number;
  score: number;
  from: number;
  to: number;
  seen: number;
  documents: number[];
}

/** The second pass of a deep page: keeps the wanted hits of each group. */
class PageOfHits {
  readonly #groups: PageGroup[];
  readonly #bySlot: Array<PageGroup | undefined>;
  readonly #large: Map<number, PageGroup>;

  constructor(
    groups: PageGroup[],
    bySlot: Array<PageGroup | undefined>,
    large: Map<number, PageGroup>,
  ) {
    this.#groups = groups;
    this.#bySlot = bySlot;
    this.#large = large;
  }

  /** How many groups have hits in the page. */
  get wanted(): number {
    return this.#groups.length;
  }

  take(documents: Int32Array, tallies: Float64Array, count: number): void {
    const bySlot = this.#bySlot;
    for (let i = 0; i < count; i++) {
      const tally = tallies[i]!;
      const slot = slotOf(tally);
      const group = slot >= 0 ? bySlot[slot] : this.#large.get(tally);
      if (group === undefined) continue;
      if (group.seen >= group.from && group.seen < group.to) group.documents.push(documents[i]!);
      group.seen += 1;
    }
  }

  /**
   * The page: the kept hits of each group, in rank order; within a group in document order, or
   * sorted by `tie` and cut to ranks `offset .. offset + limit`.
   * @note With a tie order that is not document order every hit of the page's scores is kept
   * and sorted: slow for a common word, but only when objects were indexed out of creation order.
   */
  ranked(offset: number, limit: number, tie: TieOrder | undefined, total: number): RankedPage {
    const page: RankedPage = { documents: [], scores: [], total };
    for (const { rank, score, documents } of this.#groups) {
      let first = 0;
      let end = documents.length;
      if (tie) {
        documents.sort(tie);
        first = Math.max(offset - rank, 0);
        end = Math.min(offset + limit - rank, end);
      }
      for (let i = first; i < end; i++) {
        page.documents.push(documents[i]!);
        page.scores.push(score);
      }
    }
    return page;
  }
}
