/**
 * What a step of `explore` works with (the sequence's `World`): both sides, the pairs created so
 * far, and the ways to send, record and compare. The step files take it, not the class, so no
 * import runs in a circle.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import type { BodyValues, Target } from '../target-api/target.ts';
import type {
  CollectionPair,
  KeyName,
  Coverage,
  Keys,
  ObjectPair,
  Pair,
  SendBoth,
  Sent,
  StepRecord,
} from './comparison.ts';

/**
 * Why the model answered 404: the resource is gone (deleted), not yours (another account's), or
 * never existed (an id that names nothing). The spec states none of their statuses; each is
 * judged by what the description lists, and an id that never existed may answer 404 as well.
 */
export type Absence = 'gone' | 'notYours' | 'never';

export interface Explorer {
  readonly target: Target;
  readonly model: Target;
  readonly keys: Keys;
  readonly modelKeys: Keys;
  readonly coverage: Coverage;
  readonly records: StepRecord[];
  readonly collections: CollectionPair[];
  readonly objects: ObjectPair[];
  requests: number;
  /** A fresh number for a collection's name: a step may create more than one. */
  nextName(): number;
  /**
   * A name for a collection of this sequence (`answers-contract-<run>-x<sequence>-<what>`), which
   * the run can find, read back and delete.
   */
  collectionName(what: string): string;
  /** A word planted in content, unique to this sequence of this run. */
  word(index: number): string;
  /** Sends the same operation to both sides; a `null` key sends none but the step's headers. */
  both(
    operation: Parameters<Target['send']>[0],
    key: KeyName | null,
    options?: SendBoth,
  ): Promise<[Sent, Sent]>;
  /** The run's values within the target's declared limits: what is sent, and remembered. */
  fit<T extends BodyValues | undefined>(values: T): T;
  /** `--level profile`: our document's statuses and problem codes, exactly. */
  readonly profile: boolean;
  /**
   * Whether the collection a create answered is the sequence's (`RunData.claim`): why not, when
   * it is someone else's (listed before the run, or named otherwise); claimed ones are deleted
   * with the rest.
   */
  claim(targetId: string, answer: unknown, name: string, key: KeyName): Promise<string | undefined>;
  /** Why a collection must not be deleted, read back first (`RunData.mayNotDelete`). */
  mayNotDelete(pair: CollectionPair): Promise<string | undefined>;
  /**
   * Marks a collection the target created (in turn, or out of turn), so that it is deleted with
   * the rest; not when `answer` shows it is another collection than the one named `name`.
   */
  track(targetId: string, name: string, answer: unknown, key: KeyName): void;
  /** Drops a collection from the clean-up: the sequence deleted it. */
  forget(targetId: string): void;
  record(request: string, model: Sent, target: Sent, extra?: string): StepRecord;
  /** Fails unless both sides answered the same way, as the spec and description say. */
  agree(clause: ClauseId, model: Sent, target: Sent, record: StepRecord, why?: Absence): void;
  /** Whether a status of the target, or of the model, says "absent" the way `why` allows. */
  absent(side: 'target' | 'model', why: Absence, status: number): boolean;
  /** Fails unless the two values are the same JSON. */
  same(clause: ClauseId, what: string, model: unknown, target: unknown, record: StepRecord): void;
  /** Creates a collection on both sides, as the step of that name. */
  createCollection(key: KeyName, metadata: Record<string, unknown>): Promise<void>;
  /** Gets a collection on both sides and compares it, as the step of that name. */
  getCollection(ref: number, key: KeyName): Promise<void>;
  /** Deletes a collection on both sides, as the step of that name (which reads it back). */
  deleteCollection(ref: number, key: KeyName, readBack?: boolean): Promise<void>;
  /** A read after writes, asked again while it diverges, for `--settle` at most. */
  settled(read: () => Promise<void>): Promise<void>;
  /** A page size within the target's declared largest (`limits.pageSize`). */
  pageSize(size: number): number;
  /** The collection a step's `ref` names, if any exists. */
  collection(ref: number): CollectionPair | undefined;
  /** Whether a pair is absent to a key because it is gone or because it is not the key's. */
  why(pair: Pair, key: KeyName): 'gone' | 'notYours';
}
