/**
 * Every kind of step `explore` draws, in the order fast-check draws among them (a change of order
 * changes what every seed generates). A new kind is its file in this folder and its line here:
 * its step joins `Step`, the generator and the dispatch at once.
 */
import * as fc from '../fast-check.ts';
import { CheckFailure } from '../../failure.ts';
import { walkBroken } from '../../judges/walks.ts';
import type { World } from '../world.ts';
import type { OperationName } from '../../target-api/description.ts';
import { WORDS, type Draws, type KeyName, type StepKind, type Writer } from '../step-kind.ts';
import { createCollection } from './create-collection.ts';
import { createCollections } from './create-collections.ts';
import { getCollection } from './get-collection.ts';
import { deleteCollection } from './delete-collection.ts';
import { createObject } from './create-object.ts';
import { createObjects } from './create-objects.ts';
import { getObject } from './get-object.ts';
import { search } from './search.ts';
import { walk } from './walk.ts';
import { updateCollection } from './update-collection.ts';
import { replaceObject } from './replace-object.ts';
import { deleteObject } from './delete-object.ts';
import { updateObject } from './update-object.ts';
import { listObjects } from './list-objects.ts';
import { walkWhileWriting } from './walk-while-writing.ts';
import { walkAcrossKeys } from './walk-across-keys.ts';
import { oddRequest } from './odd-request.ts';
import { raceUpdates } from './race-updates.ts';
import { recreateCollection } from './recreate-collection.ts';

export const STEP_KINDS = [
  createCollection,
  createCollections,
  getCollection,
  deleteCollection,
  createObject,
  createObjects,
  getObject,
  search,
  walk,
  updateCollection,
  replaceObject,
  deleteObject,
  updateObject,
  listObjects,
  walkWhileWriting,
  walkAcrossKeys,
  oddRequest,
  raceUpdates,
  recreateCollection,
] as const;

type StepOf<K> = K extends StepKind<infer S> ? S : never;

/** A step of a sequence: plain data that fast-check generates, shrinks and prints. */
export type Step = StepOf<(typeof STEP_KINDS)[number]>;

const BY_KIND = new Map<string, StepKind<Step>>(
  STEP_KINDS.map((kind) => [kind.kind, kind as unknown as StepKind<Step>]),
);

/** The kind of a step: how it runs, and whether it walks the list. */
function kindOf(step: Step): StepKind<Step> {
  return BY_KIND.get(step.kind)!;
}

/** Runs one step of a sequence; a walk passes the gate alone, its own writes inside it. */
export async function runStep(world: World, step: Step): Promise<void> {
  world.stepNumber += 1;
  const kind = kindOf(step);
  try {
    if (!kind.walks) return await kind.run(world, step);
    await world.gate.walk(async () => {
      world.walking = true;
      try {
        await kind.run(world, step);
      } finally {
        world.walking = false;
      }
    });
    if (world.profile) world.judgedByDocument('listCollections', 200);
  } catch (error) {
    // A walk that fails (a page refused, or breaking openapi.yaml at `--level profile`).
    if (!(error instanceof CheckFailure)) throw error;
    const record = {
      request: `${step.kind} (a walk of the list)`,
      model: '200',
      target: error.message,
    };
    world.records.push(record);
    world.judged(walkBroken(error.message, error.clause), record);
  }
}

/** A kind's steps: `fc.record` of its fields, its kind first. */
function stepOf(kind: StepKind<Step>, draws: Draws): fc.Arbitrary<Step> {
  return fc.record({ kind: fc.constant(kind.kind), ...kind.fields(draws) }) as fc.Arbitrary<Step>;
}

/** The steps of a sequence, given the keys the run has and the operations the target offers. */
export function stepArbitrary(
  keys: readonly KeyName[],
  offers: (operation: OperationName) => boolean = () => true,
  profile = false,
): fc.Arbitrary<Step> {
  const key = fc.constantFrom(...keys);
  const writer: fc.Arbitrary<Writer> = fc.oneof(
    { weight: 3, arbitrary: fc.constant('owner' as const) },
    { weight: 1, arbitrary: key },
  );
  const draws: Draws = {
    keys,
    profile,
    key,
    writer,
    ref: fc.nat({ max: 7 }),
    word: fc.nat({ max: WORDS - 1 }),
    pageSize: fc.integer({ min: 1, max: 5 }),
  };
  const drawn = (STEP_KINDS as readonly StepKind<Step>[]).flatMap((kind) => {
    const weight = typeof kind.weight === 'number' ? kind.weight : kind.weight(draws);
    return weight > 0 && kind.needs.every(offers)
      ? [{ weight, arbitrary: stepOf(kind, draws) }]
      : [];
  });
  return fc.oneof(...drawn);
}
