/**
 * The kill matrix: the fixed suite against the mock with each of its deliberate defects
 * (src/faults/). Every check must fail under the defect aimed at its rule, and every defect must be
 * caught by a check citing a clause it breaks. Deep tier: a run per fault, and what it proves
 * cannot depend on the Node line (test/README.md).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../src/contract/checks/index.ts';
import { assemble } from '../../../src/assemble.ts';
import {
  runContract,
  type CheckResult,
  type ContractReport,
} from '../../../src/contract/runner.ts';
import { FAULT_NAMES, FAULTS, withFault, type FaultName } from '../../../src/faults/index.ts';
import { startServer } from '../../../src/node/server.ts';

const KEYS = {
  full: 'answers_test_full_acme',
  readonly: 'answers_test_readonly_acme',
  otherAccount: 'answers_test_full_globex',
  inactive: 'answers_test_inactive_acme',
};

const failing = (report: ContractReport) => report.results.filter((r) => r.outcome === 'fail');

/**
 * For every check, the deliberate defect aimed at its own rule: under it the check must fail
 * through its own requests and assertions (not while the shared data is prepared), and the check
 * must cite a clause the defect breaks. Other checks may fail under the same defect too.
 */
const KILLER: Record<string, FaultName> = {
  // Spec checks: each talks to the target through its description only.
  'auth.missing-key': 'auth-not-enforced',
  'auth.malformed-header': 'malformed-header-accepted',
  'auth.unknown-key': 'auth-not-enforced',
  'auth.inactive-key': 'inactive-key-accepted',
  'auth.missing-permission': 'permission-not-enforced',
  'auth.bearer-accepted': 'bearer-scheme-case-sensitive',
  'auth.api-key-header-accepted': 'header-form-ignored',
  'list.summaries': 'summary-without-count',
  'list.order': 'list-order-wrong',
  'list.walk': 'page-skips-item',
  'collection.get': 'collection-lookup-off-by-one',
  'collection.isolation': 'cross-account-leak',
  'object.get': 'object-nested-content-dropped',
  'search.finds': 'search-index-stale',
  'search.isolation': 'search-cross-account',
  'delete.collection': 'soft-delete',
  'delete.cascade': 'delete-not-cascading',
  'delete.object': 'deleted-object-searchable',
  // Profile checks: our openapi.yaml's decisions (the spec checks above, held to it, too).
  'auth.both-headers': 'conflicting-keys-first-wins',
  'auth.challenge': 'no-challenge',
  'list.order-direction': 'list-order-wrong',
  'list.page-size': 'limit-clamped',
  'collection.unknown': 'not-found-is-500',
  'object.unknown': 'not-found-is-500',
  'object.system-fields-refused': 'client-system-fields-accepted',
  'search.relevance': 'search-ignores-query',
  'search.filter': 'search-filter-ignored',
  'responses.conform': 'error-body-not-problem',
  'pagination.bad-values': 'cursor-ignored',
  'ids.bad-values': 'not-found-is-500',
  'methods.not-allowed': 'method-not-allowed-404',
  'bodies.bad': 'malformed-json-500',
  'order.auth-first': 'validation-before-auth',
  'delete.twice': 'delete-twice-succeeds',
};

/** One full destructive run per fault, shared by every test that needs it. */
const reports = new Map<FaultName, Promise<ContractReport>>();
function reportUnder(fault: FaultName): Promise<ContractReport> {
  let report = reports.get(fault);
  if (!report) {
    report = (async () => {
      const server = await startServer({
        mock: (await assemble({}, withFault(fault))).mock,
        port: 0,
        quiet: true,
      });
      try {
        return await runContract({
          baseUrl: `${server.url}/api/answers/v1`,
          keys: KEYS,
          checks: CHECKS,
          destructive: true,
          level: 'profile',
        });
      } finally {
        await server.close();
      }
    })();
    reports.set(fault, report);
  }
  return report;
}

/** The clauses `check` cites that `fault` breaks. */
const shared = (check: CheckResult, fault: FaultName) =>
  check.clauses.filter((c) => (FAULTS[fault].clauses as readonly string[]).includes(c));

const PREPARING = 'preparing the shared data';
const killed = new Set<string>();
afterAll(() => {
  const faults = new Set(Object.values(KILLER)).size;
  console.log(
    `contract suite kill count: ${killed.size}/${CHECKS.length} checks proven to fail by a targeted defect (${faults} faults)`,
  );
});

describe('the contract suite against a mock with one deliberate defect', () => {
  it('names a targeted defect for every check of the suite, and for nothing else', () => {
    expect(Object.keys(KILLER).sort()).toEqual(CHECKS.map((check) => check.id).sort());
  });

  it.each(Object.entries(KILLER))('%s fails under %s', { timeout: 60_000 }, async (id, fault) => {
    const report = await reportUnder(fault);
    const result = report.results.find((r) => r.id === id)!;
    const failed = failing(report).map((r) => r.id);
    expect(result.outcome, `${id} did not fail; failing: ${failed.join(', ')}`).toBe('fail');
    // It fails by its own requests and assertions, not because the shared data could not be made.
    expect(result.reason!.startsWith(PREPARING), result.reason).toBe(false);
    // The failing check names a clause the defect breaks.
    expect(shared(result, fault)).not.toEqual([]);
    killed.add(id);
  });

  // @note Weaker than the map above: system-fields-missing and wrong-content-type break the
  // shared data, so the checks citing their clauses fail before they reach their own rule.
  it.each(FAULT_NAMES)(
    '%s is caught by a check citing a clause it breaks',
    { timeout: 60_000 },
    async (fault) => {
      const report = await reportUnder(fault);
      const catchers = failing(report).filter((r) => shared(r, fault).length > 0);
      expect(catchers.map((r) => r.id)).not.toEqual([]);
    },
  );
});
