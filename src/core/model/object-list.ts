import { insertSorted, removeSorted, replaceSorted } from './creation-order.ts';
import type { ObjectRecord } from './records.ts';
import type { Vocabulary } from './vocabulary.ts';

/** How many objects leave the search index in one turn at most (see `ObjectList.releaseAll`). */
export const RELEASE_TURN_OBJECTS = 1_024;
/** How long one turn of releasing objects may run, in ms, before the event loop gets a turn. */
const RELEASE_TURN_MS = 10;

/**
 * The objects of one collection in creation order, with each object's document number in the
 * store's search index at the same index. Every write to the list is made to the index in the
 * same step (`inverted-index.ts`), so the index always holds exactly the listed objects.
 */
export class ObjectList<T extends ObjectRecord> {
  readonly records: T[] = [];
  /** The search index's number for each record, at the same index. */
  readonly documents: number[] = [];
  #collectionId: string | undefined;

  constructor(private readonly vocabulary: Vocabulary) {
    vocabulary.index.attach(this.documents);
  }

  insert(record: T): void {
    this.#collectionId = record.collection_id;
    const at = insertSorted(this.records, record);
    const document = this.vocabulary.index.add(record);
    // @note Almost always an append (creation order): `splice` would allocate an array for
    // nothing on every insert.
    if (at === this.documents.length) this.documents.push(document);
    else this.documents.splice(at, 0, document);
  }

  replace(previous: T, next: T): void {
    const at = replaceSorted(this.records, previous, next);
    if (at < 0) return;
    this.vocabulary.index.replace(this.documents[at]!, previous, next);
  }

  remove(record: T): void {
    const at = removeSorted(this.records, record);
    if (at < 0) return;
    this.vocabulary.index.remove(this.documents[at]!, record);
    this.documents.splice(at, 1);
  }

  /**
   * Takes every object out of the search index: the list is being dropped whole. Awaits `pause`
   * after every {@link RELEASE_TURN_OBJECTS} objects and whenever a turn has run
   * {@link RELEASE_TURN_MS}, so that a large collection leaves the index without holding the
   * event loop: in one turn, a collection of 20,000 objects held it 230 to 285 ms.
   * @note The caller holds the mock's request queue meanwhile, so no request sees the index
   * half released; every other lookup has forgotten the objects before this starts.
   */
  async releaseAll(pause: () => Promise<void>): Promise<void> {
    const { index } = this.vocabulary;
    let turnStarted = performance.now();
    for (let i = 0; i < this.records.length; i++) {
      index.remove(this.documents[i]!, this.records[i]!);
      const turnEnds = (i + 1) % RELEASE_TURN_OBJECTS === 0;
      if (turnEnds || performance.now() - turnStarted >= RELEASE_TURN_MS) {
        await pause();
        turnStarted = performance.now();
      }
    }
    index.detach(this.documents, this.#collectionId);
  }
}
