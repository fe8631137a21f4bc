/**
 * Small numbers for the collections that have objects in the search index (from 1; 0 marks a
 * deleted document), so a document's collection is one entry of an `Int32Array` and a search's
 * collections one `Uint8Array` of flags. A deleted collection's number is given out again.
 */
export class CollectionNumbers {
  readonly #numbers = new Map<string, number>();
  readonly #free: number[] = [];
  #count = 1;

  /** The collection's number, given one if it has none. */
  numberOf(collectionId: string): number {
    let number = this.#numbers.get(collectionId);
    if (number === undefined) {
      number = this.#free.pop() ?? this.#count++;
      this.#numbers.set(collectionId, number);
    }
    return number;
  }

  /** Frees the collection's number: it has left the index. */
  free(collectionId: string): void {
    const number = this.#numbers.get(collectionId);
    if (number === undefined) return;
    this.#numbers.delete(collectionId);
    this.#free.push(number);
  }

  /** Flags, by number, of the given collections (those without objects have none). */
  allowed(collectionIds: readonly string[]): Uint8Array {
    const allowed = new Uint8Array(this.#count);
    for (const id of collectionIds) {
      const number = this.#numbers.get(id);
      if (number !== undefined) allowed[number] = 1;
    }
    return allowed;
  }
}
