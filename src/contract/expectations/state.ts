/**
 * What a correct target must now show of a sequence's own data: the expectations model explore
 * and replay both keep, pair by pair (the id on the target, the id on the side compared with).
 * It changes only through `after` (effects.ts), typed over every operation; the judges read it.
 */
import type { KeyName } from '../judges/clause-of.ts';
import type { UpdateStyle } from '../target-api/description.ts';

/** A value as each update style leaves it (updates.ts). */
export type ByStyle = Record<UpdateStyle, unknown>;

/** A resource created on both sides. */
export interface Pair {
  target: string;
  model: string;
  key: KeyName;
}

export interface CollectionPair extends Pair {
  deleted: boolean;
  /** The name the run gave it (explore): a new collection may be given it again once it is deleted. */
  name?: string;
  /**
   * The metadata as each update style leaves it (updates.ts): the spec states no update, so a
   * target replaces, merges or merge-patches as its description says (or any of them).
   */
  metadata: ByStyle;
}

export interface ObjectPair extends Pair {
  collection: CollectionPair;
  word: number;
  /** The content as sent, by each update style (the last replace resets every one). */
  content: ByStyle;
  /** Contents the object held before (replaced or updated): what a stale read would show. */
  earlier: unknown[];
  /** Deleted itself; an object of a deleted collection is gone with it (`collection.deleted`). */
  deleted: boolean;
  /** A get showed every system field: one lacking later is lost (OBJ-GET-1), not never added. */
  complete?: boolean;
}

/** The sequence's data so far, in the order it was created (steps name it by number). */
export class Expected {
  readonly collections: CollectionPair[] = [];
  readonly objects: ObjectPair[] = [];

  /** The update styles a read may show: the description's, or every one. */
  constructor(
    readonly styles: { metadata?: UpdateStyle | undefined; content?: UpdateStyle | undefined },
  ) {}

  /** The collection a step's `ref` names, if any exists. */
  collection(ref: number): CollectionPair | undefined {
    const list = this.collections;
    return list.length === 0 ? undefined : list[ref % list.length];
  }

  /** The object a step's `ref` names, if any exists. */
  object(ref: number): ObjectPair | undefined {
    const list = this.objects;
    return list.length === 0 ? undefined : list[ref % list.length];
  }

  /** How messages name a pair: `#3`, its number in the sequence. */
  numberOf(pair: CollectionPair | ObjectPair): number {
    return 'collection' in pair
      ? this.objects.indexOf(pair) + 1
      : this.collections.indexOf(pair) + 1;
  }
}
