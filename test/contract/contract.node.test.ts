import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS, PROFILE_CHECKS, SPEC_CHECKS } from '../../src/contract/checks/index.ts';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { runContract, type ContractReport } from '../../src/contract/runner.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';

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
  options: { destructive?: boolean; level?: 'spec' | 'profile' } = {},
): Promise<ContractReport> {
  return runContract({
    baseUrl: await serve(mock),
    keys: KEYS,
    checks: CHECKS,
    destructive: true,
    level: 'profile',
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
    const before = mock.controls.export();
    const report = await run(mock, { destructive: false });
    expect(report.counts.fail).toBe(0);
    expect(mock.controls.export()).toEqual(before);
    const skipped = report.results.filter((r) => r.outcome === 'skip');
    expect(skipped.length).toBeGreaterThan(0);
    for (const result of skipped) expect(result.reason).toMatch(/destructive/);
  });

  it('runs only the spec checks at --level spec: the profile checks are not run, not failed', async () => {
    const report = await run(await createMock(), { level: 'spec' });
    expect(failing(report)).toEqual([]);
    expect(report.results.map((r) => r.level)).not.toContain('profile');
    expect(report.counts).toEqual({ pass: SPEC_CHECKS.length, fail: 0, skip: 0 });
    expect(report.notRun?.checks).toEqual(PROFILE_CHECKS.map((check) => check.id));
  });
});
