import { junitXml, runCases, type JUnitSuite } from './runner/junit.ts';
import type { CheckResult, ContractReport } from './runner.ts';
import { stoppedBy } from './run-verdict.ts';

const MARK = {
  pass: 'PASS',
  fail: 'FAIL',
  skip: 'SKIP',
  'not testable': 'n/a ',
  'not run': '--  ',
} as const;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One line per finished check, for progress output. */
export function formatResult(result: CheckResult): string {
  const readOnly = result.readOnly
    ? `\n      judged read-only, on existing data: ${result.readOnly}`
    : '';
  const reason = (result.reason ? `\n      ${result.reason}` : '') + readOnly;
  return `${MARK[result.outcome]}  ${result.id} [${result.level}: ${result.clauses.join(', ')}] ${result.title}${reason}`;
}

/** "3 passed, 1 failed, 2 skipped" of one set of counts. */
function tally(counts: Record<'pass' | 'fail' | 'skip', number>): string {
  return `${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped`;
}

/** How the verdict line names each verdict. */
const VERDICT = {
  passed: 'PASSED',
  failed: 'FAILED',
  'nothing judged': 'NOTHING JUDGED',
  interrupted: 'FAILED',
} as const;

/** The verdict line: what decided it, in one line. */
function verdict(report: ContractReport): string {
  return `${tally(report.counts)} in ${(report.durationMs / 1000).toFixed(1)} s: ${VERDICT[report.verdict]} at level ${report.level}`;
}

/** The lines of the summary: the verdict, then what else a reader must know about the run. */
function summary(report: ContractReport): string[] {
  const lines = [verdict(report)];
  if (report.nothingJudged) lines.push(`  nothing judged: ${stoppedBy(report.nothingJudged)}`);
  const readOnly = report.results.filter((r) => r.readOnly);
  if (readOnly.length > 0)
    lines.push(
      `  ${readOnly.length} checks judged read-only, on existing data, as --destructive ${readOnly[0]!.readOnly} (${readOnly.map((r) => r.id).join(', ')})`,
    );
  if (report.notRun)
    lines.push(`  ${report.notRun.checks.length} checks not run: ${report.notRun.reason}`);
  if (report.leftBehind.length > 0)
    lines.push(`  left behind on the target (the run fails): ${report.leftBehind.join(', ')}`);
  const { waits, waitedMs, notWaited } = report.pushback;
  if (waits > 0 || notWaited > 0)
    lines.push(
      `  the target asked the suite to wait ${waits} times (429 or 503 with Retry-After): ${(waitedMs / 1000).toFixed(1)} s waited${notWaited > 0 ? `; ${notWaited} longer waits not honoured` : ''}`,
    );
  if (report.settle.polls > 0)
    lines.push(
      `  reads after writes asked again ${report.settle.polls} times; the longest lag was ${report.settle.maxLagMs} ms (--settle ${report.settle.ms})`,
    );
  if (report.foreignUrls.length > 0)
    lines.push(
      `  the target led the suite to other origins (never sent a key): ${report.foreignUrls.slice(0, 3).join(', ')}${report.foreignUrls.length > 3 ? ', …' : ''}`,
    );
  return lines;
}

/**
 * The readable report: the summary first, then the failures with their evidence, the skips
 * grouped by reason, every check, the conformance matrix, and the verdict again as its last line.
 */
export function formatReport(report: ContractReport): string {
  const failures = report.results
    .filter((r) => r.outcome === 'fail')
    .map((r) => `FAIL  ${r.id} [${r.clauses.join(', ')}] ${r.title}\n      ${r.reason ?? ''}`);
  const byReason = new Map<string, string[]>();
  for (const r of report.results.filter((result) => result.outcome === 'skip'))
    byReason.set(r.reason ?? '', [...(byReason.get(r.reason ?? '') ?? []), r.id]);
  const skips = [...byReason].map(([reason, ids]) => `- ${reason}\n  (${ids.join(', ')})`);
  const checks = table([
    ['result', 'check', 'level', 'clauses'],
    ...report.results.map((r) => [MARK[r.outcome], r.id, r.level, r.clauses.join(', ')]),
  ]);
  const matrix = table([
    ['result', 'clause', 'kind', 'proven by / why not'],
    ...report.matrix.map((c) => [MARK[c.outcome], c.id, c.kind, c.detail]),
  ]);
  const causes = report.sharedCauses.map(
    (cause) => `- ${cause.reason}\n  (${cause.checks.length} checks: ${cause.checks.join(', ')})`,
  );
  const mode = [
    report.destructive ? 'destructive' : 'read-only',
    `level ${report.level}`,
    `${report.concurrency} at once`,
    `${report.requests} requests`,
  ];
  return [
    `Answers contract suite against ${report.baseUrl}${report.via ? ` (through ${report.via})` : ''}`,
    `run ${report.runId}, ${mode.join(', ')}; target description: ${report.description}`,
    '',
    ...summary(report),
    ...(failures.length > 0 ? ['', `Failures (${failures.length})`, ...failures] : []),
    ...(causes.length > 0 ? ['', 'Failures that share one cause', ...causes] : []),
    ...(skips.length > 0 ? ['', 'Skipped, by reason', ...skips] : []),
    '',
    'Checks',
    checks,
    '',
    `Conformance matrix (stated clauses judged by spec checks only${report.level === 'spec' ? '; our decisions at --level profile' : ''})`,
    matrix,
    '',
    verdict(report),
  ].join('\n');
}

/** JUnit XML: a test suite per level, one test case per check named with its clauses. */
export function toJUnit(report: ContractReport): string {
  // @note Only checks that ran are test cases: a check that did not run at this level is neither
  // a failure nor a skip of the job.
  const suites: JUnitSuite[] = (['spec', 'profile'] as const).map((level) => ({
    name: `answers-contract.${level}`,
    timestamp: report.startedAt,
    cases: report.results
      .filter((r) => r.level === level)
      .map((r) => ({
        classname: `answers-contract.${level}`,
        name: `${r.id}: ${r.title} [${r.clauses.join(', ')}]`,
        timeMs: r.durationMs,
        ...(r.outcome === 'fail' ? { failure: { message: r.reason ?? '' } } : {}),
        ...(r.outcome === 'skip' ? { skipped: r.reason ?? '' } : {}),
      })),
  }));
  const nothingJudged = report.nothingJudged && stoppedBy(report.nothingJudged);
  suites.push({
    name: 'answers-contract.run',
    timestamp: report.startedAt,
    cases: runCases('answers-contract.run', { leftBehind: report.leftBehind, nothingJudged }),
  });
  return junitXml('answers-contract', suites, report.durationMs);
}
