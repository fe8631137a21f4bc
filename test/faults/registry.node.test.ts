/** The registry of faults: derived from the families, documented, and refusing unknown names. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assemble } from '../../src/assemble.ts';
import type { MockState } from '../../src/core/store/mock-state.ts';
import { AUTH_FAULTS } from '../../src/faults/auth.ts';
import { DELETION_FAULTS } from '../../src/faults/deletion.ts';
import {
  FAULT_NAMES,
  FAULTS,
  isFaultName,
  withFault,
  type FaultName,
} from '../../src/faults/index.ts';
import { LISTING_FAULTS } from '../../src/faults/listing.ts';
import { NEGATIVE_FAULTS } from '../../src/faults/negative.ts';
import { RESOURCE_FAULTS } from '../../src/faults/resources.ts';
import { RESPONSE_FAULTS } from '../../src/faults/responses.ts';
import { SEARCH_FAULTS } from '../../src/faults/search.ts';
import { createMockWithFault, NOW } from './mocks.ts';

describe('FAULTS', () => {
  it('names the 35 faults, each with a description and clause ids of docs/spec-gaps.md', () => {
    expect(FAULT_NAMES).toHaveLength(35);
    const gaps = readFileSync(new URL('../../docs/spec-gaps.md', import.meta.url), 'utf8');
    for (const name of FAULT_NAMES) {
      const { description, clauses } = FAULTS[name];
      expect(description.length, name).toBeGreaterThan(0);
      expect(clauses.length, name).toBeGreaterThan(0);
      for (const id of clauses) expect(gaps, `${name} cites ${id}`).toContain(`| \`${id}\``);
    }
  });

  // The registry is the families spread into one object: a name in two families would silently
  // lose one definition.
  it('defines each fault in exactly one family, and knows the names of every family', () => {
    const families = [
      AUTH_FAULTS,
      LISTING_FAULTS,
      RESOURCE_FAULTS,
      SEARCH_FAULTS,
      RESPONSE_FAULTS,
      NEGATIVE_FAULTS,
      DELETION_FAULTS,
    ];
    const defined = families.flatMap((family) => Object.keys(family));
    expect(new Set(defined).size).toBe(defined.length);
    expect([...FAULT_NAMES].sort()).toEqual([...defined].sort());
    for (const name of defined) expect(isFaultName(name), name).toBe(true);
    for (const name of ['no-such-fault', 'toString', '']) {
      expect(isFaultName(name), name).toBe(false);
    }
  });

  it('refuses an unknown fault and reads the state of the mock it is assembled into', async () => {
    expect(() => withFault('no-such-fault' as FaultName)).toThrow(RangeError);
    await expect(createMockWithFault('no-such-fault' as FaultName, { now: NOW })).rejects.toThrow(
      RangeError,
    );
    const given: MockState[] = [];
    const counts = withFault('counts-wrong');
    const { state } = await assemble({ now: NOW }, (mockState) => {
      given.push(mockState);
      return counts(mockState);
    });
    expect(given).toHaveLength(1);
    expect(given[0]).toBe(state);
  });
});
