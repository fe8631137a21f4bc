/**
 * Ranking search hits: by score, highest first, then by a tie order (creation order), given as
 * document numbers. Hits are read in ascending document order, a chunk at a time.
 * @see docs/spec-gaps.md GAP-SEARCH-RESP
 */
import { ScoreGroups } from './score-groups.ts';
import { scoreOf, type HitReader, type RankedPage, type TieOrder } from './tally.ts';

/** How many hits are read and ranked at a time. */
const CHUNK = 4_096;

/**
 * Reads every hit, a chunk at a time, handing each chunk to `take`; copies only the hits above
 * `floor()`. Returns how many hits there are.
 */
function readAll(
  reader: HitReader,
  floor: () => number,
  take: (documents: Int32Array, tallies: Float64Array, count: number) => void,
): number {
  const documents = new Int32Array(CHUNK);
  const tallies = new Float64Array(CHUNK);
  reader.rewind();
  while (!reader.finished) {
    take(documents, tallies, reader.read(documents, tallies, floor()));
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
export function rankHits(
  reader: HitReader,
  offset: number,
  limit: number,
  tie: TieOrder | undefined,
): RankedPage {
  if (offset + limit <= SHALLOW) {
    const best = new BestHits(offset + limit, tie);
    const total = readAll(
      reader,
      () => best.floor,
      (documents, tallies, count) => best.offer(documents, tallies, count),
    );
    return best.page(offset, total);
  }
  const groups = new ScoreGroups();
  const total = readAll(reader, EVERY, (_, tallies, count) => groups.count(tallies, count));
  const page = groups.plan(offset, limit, tie === undefined);
  if (page.wanted > 0) {
    readAll(reader, EVERY, (documents, tallies, count) => page.take(documents, tallies, count));
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
