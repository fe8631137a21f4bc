/**
 * The fault switch: run the mock with exactly one deliberate defect, to prove a contract suite can
 * fail. Not exported by any default entry point; import `src/faults/index.ts` explicitly.
 *
 * @note Nothing in the default entry points imports this folder: a fault is only ever present
 * when a caller asks for it with `withFault`.
 */
import type { Intercept } from '../core/create-mock.ts';
import { AUTH_FAULTS } from './auth.ts';
import { DELETION_FAULTS } from './deletion.ts';
import type { Fault } from './kit.ts';
import { LISTING_FAULTS } from './listing.ts';
import { NEGATIVE_FAULTS } from './negative.ts';
import { RESOURCE_FAULTS } from './resources.ts';
import { RESPONSE_FAULTS } from './responses.ts';
import { SEARCH_FAULTS } from './search.ts';

/**
 * Every deliberate defect by name, family by family in the order the contract checks run.
 *
 * @note A name defined in two families would silently keep only the later one; the fault tests
 * count the names, which catches that.
 */
export const FAULTS = {
  ...AUTH_FAULTS,
  ...LISTING_FAULTS,
  ...RESOURCE_FAULTS,
  ...SEARCH_FAULTS,
  ...RESPONSE_FAULTS,
  ...NEGATIVE_FAULTS,
  ...DELETION_FAULTS,
};

/** The name of one deliberate defect. */
export type FaultName = keyof typeof FAULTS;

/** Every fault name, in the order of {@link FAULTS}. */
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** Whether `name` is a fault name (for CLIs and environment variables). */
export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/**
 * Exactly one deliberate defect, `fault` (see {@link FAULTS}), as what a mock's assembly puts in
 * front of its API, behind its one entry `handle`: `assemble(options, withFault(fault))`
 * (`src/create-mock.ts`) makes a mock as `createMock(options)` would, with the defect. The fault
 * reads the mock's state, which the assembly gives it; the control API, controls and `mock.db`
 * are the mock's own.
 */
export function withFault(fault: FaultName): Intercept {
  // A cast name from a CLI or a test can be anything; the message lists what it could have been.
  if (!isFaultName(fault)) {
    throw new RangeError(`Unknown fault "${String(fault)}"; one of ${FAULT_NAMES.join(', ')}`);
  }
  const faults: Record<FaultName, Fault> = FAULTS;
  return faults[fault].wrap;
}
