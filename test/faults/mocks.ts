/**
 * The default seed as the fault tests read it, and a correct mock beside a faulted one: each test
 * shows a defect by the difference between the two.
 */
import { assemble } from '../../src/assemble.ts';
import { createMock, type MockOptions } from '../../src/index.ts';
import { withFault, type FaultName } from '../../src/faults/index.ts';
import { defaultState } from '../../src/seed/default-state.ts';

/** A fixed clock, so that both mocks of a test stamp the same times. */
export const NOW = '2026-11-22T12:00:00.000Z';

export const acme = defaultState.collections.filter((c) => c.account_id === 'acme');
export const byName = (name: string) => acme.find((c) => c.name === name)!;
export const objectsOf = (id: string) => defaultState.objects.filter((o) => o.collection_id === id);
export const acmeObjectCount = defaultState.objects.filter((o) => o.account_id === 'acme').length;

/** A mock made as `createMock(options)` would make it, with exactly one fault. */
export async function createMockWithFault(fault: FaultName, options: MockOptions = {}) {
  return (await assemble(options, withFault(fault))).mock;
}

/** A correct mock and a faulted one, each over its own fresh state. */
export async function mocks(fault: FaultName) {
  return {
    plain: await createMock({ now: NOW }),
    faulty: await createMockWithFault(fault, { now: NOW }),
  };
}
