/**
 * One kind of step of `explore`, whole in one object: what it is called, how often it is drawn,
 * the operations it sends (it is drawn only when the target offers them), the clauses its judges
 * own, how fast-check draws its fields, and how it runs on both sides (its record is how it prints).
 * A step names earlier resources by number (`ref`), taken modulo what exists when it runs, so
 * removing a step while shrinking leaves the others valid. A new kind is one file in `steps/` and
 * one line in `steps/index.ts`.
 */
import type * as fc from './fast-check.ts';
import type { OperationName } from '../target-api/description.ts';
import type { KeyName } from './comparison.ts';
import type { World } from './world.ts';

export type { KeyName } from './comparison.ts';
export { WORDS } from './comparison.ts';

/** The key of a write: usually the owner's (the key that made what it changes), else any. */
export type Writer = KeyName | 'owner';

/** What every kind draws from: the run's keys, and the shared shapes of a step's fields. */
export interface Draws {
  keys: readonly KeyName[];
  /** `--level profile`: steps that only our document's decisions judge may be drawn. */
  profile: boolean;
  key: fc.Arbitrary<KeyName>;
  writer: fc.Arbitrary<Writer>;
  /** An earlier resource, by number (modulo what exists when the step runs). */
  ref: fc.Arbitrary<number>;
  /** One of the sequence's words (`WORDS`). */
  word: fc.Arbitrary<number>;
  pageSize: fc.Arbitrary<number>;
}

export interface StepKind<S extends { kind: string }> {
  kind: S['kind'];
  /** How often it is drawn against the other kinds; 0 leaves it out. */
  weight: number | ((draws: Draws) => number);
  /** The operations it sends: it is drawn only when the target offers every one. */
  needs: readonly OperationName[];
  /** A walk of the list: it passes the gate alone (gate.ts). */
  walks?: true;
  /**
   * How fast-check draws each of its fields but `kind` (one arbitrary a field): the step is
   * `fc.record` of them, its kind first.
   */
  fields(draws: Draws): { [F in Exclude<keyof S, 'kind'>]: fc.Arbitrary<S[F]> };
  run(world: World, step: S): Promise<void>;
}

/** The value an arbitrary draws. */
type Drawn<A> = A extends fc.Arbitrary<infer V> ? V : never;

/** The step of kind `K` whose fields the arbitraries `F` draw: plain data, printed as it is. */
export type StepOf<K extends string, F> = { kind: K } & { [P in keyof F]: Drawn<F[P]> };

/** A kind, its step's type read from its kind and its fields. */
export function stepKind<K extends string, F extends Record<string, fc.Arbitrary<unknown>>>(
  kind: Omit<StepKind<StepOf<K, F>>, 'kind' | 'needs' | 'fields' | 'run'> & {
    kind: K;
    fields(draws: Draws): F;
    run(world: World, step: StepOf<K, F>): Promise<void>;
  } & (K extends OperationName
      ? { /** Default: the operation it is named after. */ needs?: readonly OperationName[] }
      : { needs: readonly OperationName[] }),
): StepKind<StepOf<K, F>> {
  const needs = kind.needs ?? [kind.kind as OperationName];
  return { ...kind, needs } as unknown as StepKind<StepOf<K, F>>;
}
