import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CHECKS } from '../contracts/index.ts';
import { createMock, type AnswersMock } from '../src/core/create-mock.ts';
import { runContract, type ContractReport } from '../src/contract/runner.ts';
import { NOT_TESTABLE } from '../src/contract/not-testable.ts';
import { CLAUSES } from '../src/generated/clauses.ts';
import { FAULTS, withFault, type FaultName } from '../src/faults/index.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';

const KEYS = {
  full: 'answers_test_full_acme',
  readonly: 'answers_test_readonly_acme',
  otherAccount: 'answers_test_full_globex',
  inactive: 'answers_test_inactive_acme',
};

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(mock: AnswersMock): Promise<string> {
  running = await startServer({ mock, port: 0, quiet: true });
  return `${running.url}/api/answers/v1`;
}

async function run(
  mock: AnswersMock,
  options: { destructive?: boolean; specOnly?: boolean } = {},
): Promise<ContractReport> {
  return runContract({
    baseUrl: await serve(mock),
    keys: KEYS,
    checks: CHECKS,
    destructive: true,
    ...options,
  });
}

const failing = (report: ContractReport) => report.results.filter((r) => r.outcome === 'fail');

describe('the contract suite against the correct mock', () => {
  it('passes every check, with nothing skipped and nothing left behind', async () => {
    const mock = await createMock();
    const before = mock.controls.export();
    const report = await run(mock);
    expect(failing(report).map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.counts).toEqual({ pass: CHECKS.length, fail: 0, skip: 0 });
    expect(report.leftBehind).toEqual([]);
    // Everything the destructive run created was deleted again.
    expect(mock.controls.export().collections).toEqual(before.collections);
  });

  it('changes nothing on the target without --destructive', async () => {
    const mock = await createMock();
    const before = JSON.stringify(mock.controls.export());
    const report = await run(mock, { destructive: false });
    expect(report.counts.fail).toBe(0);
    expect(JSON.stringify(mock.controls.export())).toBe(before);
    const skipped = report.results.filter((r) => r.outcome === 'skip');
    expect(skipped.length).toBeGreaterThan(0);
    for (const result of skipped) expect(result.reason).toMatch(/destructive/);
  });

  it('runs only spec checks with --spec-only, and they pass', async () => {
    const report = await run(await createMock(), { specOnly: true });
    expect(report.counts.fail).toBe(0);
    for (const result of report.results) {
      if (result.level === 'profile') expect(result.outcome).toBe('skip');
    }
    expect(
      report.results.filter((r) => r.level === 'spec' && r.outcome === 'pass').length,
    ).toBeGreaterThanOrEqual(10);
  });

  it('accounts for every clause of docs/spec-gaps.md: proven by a check or explained', () => {
    const proven = new Set(CHECKS.flatMap((check) => check.clauses));
    const unaccounted = CLAUSES.filter((c) => !proven.has(c.id) && !(c.id in NOT_TESTABLE)).map(
      (c) => c.id,
    );
    expect(unaccounted).toEqual([]);
    const stale = Object.keys(NOT_TESTABLE).filter(
      (id) => !CLAUSES.some((c) => c.id === id) || proven.has(id),
    );
    expect(stale).toEqual([]);
  });
});

/** The check built to catch each defect (other checks may catch it too). */
const CATCHER: Record<FaultName, string> = {
  'auth-not-enforced': 'auth.missing-key',
  'forbidden-instead-of-unauthorized': 'auth.missing-key',
  'header-form-ignored': 'auth.api-key-header-accepted',
  'permission-not-enforced': 'auth.missing-permission',
  'list-order-wrong': 'list.order',
  'page-skips-item': 'list.walk',
  'delete-not-cascading': 'delete.cascade',
  'soft-delete': 'delete.collection',
  'system-fields-missing': 'object.get',
  'counts-wrong': 'list.counts',
  'cross-account-leak': 'collection.isolation',
  'search-ignores-query': 'search.relevance',
  'wrong-content-type': 'responses.conform',
  'schema-violation': 'responses.conform',
};

const killed: string[] = [];
afterAll(() => {
  const total = Object.keys(CATCHER).length;
  console.log(`contract suite kill count: ${killed.length}/${total} deliberate defects caught`);
});

describe('the contract suite against a mock with one deliberate defect', () => {
  it.each(Object.entries(CATCHER) as Array<[FaultName, string]>)(
    'catches %s with %s',
    async (fault, checkId) => {
      const report = await run(withFault(await createMock(), fault));
      const failed = failing(report);
      const catcher = failed.find((r) => r.id === checkId);
      expect(
        catcher,
        `${checkId} did not fail; failing: ${failed.map((r) => r.id).join(', ')}`,
      ).toBeDefined();
      // The failing check names a clause the defect breaks.
      expect(
        catcher!.clauses.filter((c) => (FAULTS[fault].clauses as readonly string[]).includes(c)),
      ).not.toEqual([]);
      killed.push(fault);
    },
  );
});
