import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../../src/generated/clauses.ts';
import { EXPLORE_CLAUSES } from '../../src/contract/explore/coverage.ts';
import { STEP_KINDS, stepArbitrary } from '../../src/contract/explore/steps/index.ts';
import { OPERATION_NAMES } from '../../src/contract/target-api/description.ts';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { bodyDecision, responseViolations } from '../../src/openapi/response-validation.ts';
import * as fc from 'fast-check';

describe('the registry of step kinds: one entry per kind, each whole', () => {
  it('names each kind once', () => {
    const kinds = STEP_KINDS.map(({ kind }) => kind);
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it.each(STEP_KINDS.map((kind) => [kind.kind, kind] as const))(
    '%s: its needs are operations',
    (_, kind) => {
      for (const operation of kind.needs) expect(OPERATION_NAMES).toContain(operation);
    },
  );

  it('the coverage table names only clauses of docs/spec-gaps.md, each reachable by the operations of some kind', () => {
    const ids = new Set<string>(CLAUSES.map(({ id }) => id));
    const sent = new Set(STEP_KINDS.flatMap((kind) => [...kind.needs]));
    for (const [clause, operations] of Object.entries(EXPLORE_CLAUSES)) {
      expect(ids.has(clause), clause).toBe(true);
      for (const operation of operations!)
        expect(sent.has(operation), `${clause}: ${operation}`).toBe(true);
    }
  });

  it('draws only kinds whose operations the target offers', () => {
    const offered = new Set(['listCollections', 'createCollection']);
    const steps = fc.sample(
      stepArbitrary(['full'], (operation) => offered.has(operation)),
      { seed: 1, numRuns: 200 },
    );
    const drawn = new Set(steps.map(({ kind }) => kind));
    expect([...drawn].sort()).toEqual(['createCollection', 'createCollections', 'walk']);
  });
});

describe('responseViolations: each way an answer breaks openapi.yaml names its decision', () => {
  const json = { 'content-type': 'application/json' };
  it.each([
    ['an undocumented status', 'getCollection', 418, json, '{}', 'GAP-ERR-STATUS'],
    [
      'another content type',
      'getCollection',
      200,
      { 'content-type': 'text/plain' },
      'x',
      'GAP-MEDIA',
    ],
    [
      'a 401 without its challenge',
      'listCollections',
      401,
      { 'content-type': 'application/problem+json' },
      '{"type":"about:blank","title":"t","status":401,"code":"unauthorized","detail":"d"}',
      'GAP-AUTH-CHALLENGE',
    ],
    [
      'an error body of another shape',
      'getCollection',
      404,
      { 'content-type': 'application/problem+json' },
      '{"oops":1}',
      'GAP-ERR-BODY',
    ],
    ['a page of another shape', 'listCollections', 200, json, '{"items":1}', 'GAP-PAGE-FIELDS'],
    ['hits of another shape', 'searchObjects', 200, json, '{"hits":1}', 'GAP-SEARCH-RESP'],
    ['an object of another shape', 'getObject', 200, json, '{"id":1}', 'GAP-OBJ-FIELDS'],
    ['a collection of another shape', 'getCollection', 200, json, '{"id":1}', 'GAP-COLL-FIELDS'],
  ])('%s', (_, operationId, status, headers, body, clause) => {
    const found = responseViolations(operationId, { status, headers: new Headers(headers), body });
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]!.clause).toBe(clause);
  });

  it('a body of a success is judged by its operation, of an error by the problem format', () => {
    expect(bodyDecision('updateObject', 200)).toBe('GAP-OBJ-FIELDS');
    expect(bodyDecision('updateObject', 409)).toBe('GAP-ERR-BODY');
  });
});

it("init's word is true: an operation no check uses is sent by an explore step", () => {
  const used = new Set(
    CHECKS.flatMap((check) => [...(check.uses ?? []), ...(check.usesWhereOffered ?? [])]),
  );
  const sent = new Set(STEP_KINDS.flatMap((kind) => [...kind.needs]));
  for (const name of OPERATION_NAMES.filter((name) => !used.has(name)))
    expect(sent.has(name), name).toBe(true);
});
