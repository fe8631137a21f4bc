/**
 * Ranking search hits: by score, highest first, then by a tie order (creation order), given as
 * document numbers. Hits are read in ascending document order, a chunk at a time, and the
 * ranking lets the event loop run between chunks once it has held it for {@link TURN_MS}.
 * @see docs/spec-gaps.md GAP-SEARCH-RESP
 */
import { breathe } from '../primitives/breathe.ts';

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

/** The longest a search holds the event loop before it lets other work run. */
const TURN_MS = 10;

/** How many hits are read and ranked at a time (between two looks at the clock). */
const CHUNK = 4_096;

/**
 * A long task's turns on the event loop: {@link Turns.pause} lets other work run once the task
 * has held the loop for {@link TURN_MS} since its last turn.
 * @note Requests run one at a time (`create-mock.ts`), so no write meets a search half done.
 */
export class Turns {
  #since = performance.now();

  /** Gives the event loop a turn when this task has held it long enough; else nothing. */
  async pause(): Promise<void> {
    if (performance.now() - this.#since < TURN_MS) return;
    await breathe();
    this.#since = performance.now();
  }
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

/**
 * Reads every hit, a chunk at a time, handing each chunk to `take`, with turns between; copies
 * only the hits above `floor()`. Returns how many hits there are.
 */
async function readAll(
  reader: HitReader,
  turns: Turns,
  floor: () => number,
  take: (documents: Int32Array, tallies: Float64Array, count: number) => void,
): Promise<number> {
  const documents = new Int32Array(CHUNK);
  const tallies = new Float64Array(CHUNK);
  reader.rewind();
  while (!reader.finished) {
    take(documents, tallies, reader.read(documents, tallies, floor()));
    await turns.pause();
  }
  return reader.count;
}

/** Every hit is wanted: tallies are positive. */
const EVERY = () => 0;

/**
 * The hits at ranks `offset .. offset + limit` and how many hits there are; `tie` undefined
 * means document order.
 * @note Pages up to {@link SHALLOW} deep are ranked in one pass keeping the best hits; deeper,
 * in two, by counting the hits of each score first.
 */
export async function rankHits(
  reader: HitReader,
  offset: number,
  limit: number,
  tie: TieOrder | undefined,
  turns: Turns,
): Promise<RankedPage> {
  if (offset + limit <= SHALLOW) {
    const best = new BestHits(offset + limit, tie);
    const total = await readAll(
      reader,
      turns,
      () => best.floor,
      (documents, tallies, count) => best.offer(documents, tallies, count),
    );
    return best.page(offset, total);
  }
  const groups = new ScoreGroups();
  const total = await readAll(reader, turns, EVERY, (_, tallies, count) =>
    groups.count(tallies, count),
  );
  const page = groups.plan(offset, limit, tie === undefined);
  if (page.wanted > 0) {
    await readAll(reader, turns, EVERY, (documents, tallies, count) =>
      page.take(documents, tallies, count),
    );
  }
  return page.ranked(offset, limit, tie, total);
}

/** Pages up to this deep are ranked in one pass keeping the best hits; deeper, in two. */
const SHALLOW = 1_000;

/**
 * The first `keep` hits in rank order, kept in a small sorted array: a hit that does not make it
 * costs one comparison, so a common word's many hits cost little more than reading them.
 */
class BestHits {
  readonly #keep: number;
  readonly #tie: TieOrder;
  readonly #inDocumentOrder: boolean;
  readonly #documents: number[] = [];
  readonly #scores: number[] = [];
  readonly #tallies: number[] = [];

  constructor(keep: number, tie: TieOrder | undefined) {
    this.#keep = keep;
    this.#tie = tie ?? ((a, b) => a - b);
    this.#inDocumentOrder = tie === undefined;
  }

  /**
   * Hits with a tally at or below this one cannot make it (0 while the array is not full).
   * @note In document order, hits with the worst kept hit's tally rank after it (they come
   * later); in another tie order they may not, so the floor is one below. Either way a score
   * never falls as the tally grows; where two tallies share a score (huge occurrence counts),
   * nothing is skipped. Skipping hits unread by tally halves the cost of a common word.
   */
  get floor(): number {
    const keep = this.#keep;
    if (this.#documents.length < keep) return 0;
    const worst = this.#tallies[keep - 1]!;
    if (this.#inDocumentOrder) return worst;
    return scoreOf(worst - 1) < this.#scores[keep - 1]! ? worst - 1 : 0;
  }

  offer(chunk: Int32Array, tallies: Float64Array, count: number): void {
    const documents = this.#documents;
    const scores = this.#scores;
    const kept = this.#tallies;
    const keep = this.#keep;
    const tie = this.#tie;
    for (let i = 0; i < count; i++) {
      const document = chunk[i]!;
      const tally = tallies[i]!;
      const score = scoreOf(tally);
      const last = documents.length - 1;
      if (last + 1 === keep) {
        const worst = scores[last]!;
        if (score < worst || (score === worst && tie(document, documents[last]!) > 0)) continue;
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
      kept.splice(low, 0, tally);
      if (documents.length > keep) {
        documents.pop();
        scores.pop();
        kept.pop();
      }
    }
  }

  page(offset: number, total: number): RankedPage {
    return { documents: this.#documents.slice(offset), scores: this.#scores.slice(offset), total };
  }
}

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
class ScoreGroups {
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
