import type { CheckResult, ContractReport } from './runner.ts';

const MARK = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP', 'not testable': 'n/a ' } as const;

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
  const reason = result.reason ? `\n      ${result.reason}` : '';
  return `${MARK[result.outcome]}  ${result.id} [${result.level}: ${result.clauses.join(', ')}] ${result.title}${reason}`;
}

/** "3 passed, 1 failed, 2 skipped" of one set of counts. */
function tally(counts: Record<'pass' | 'fail' | 'skip', number>): string {
  return `${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped`;
}

/** The readable report: checks by level, shared causes, the conformance matrix, the verdict. */
export function formatReport(report: ContractReport): string {
  const section = (level: 'spec' | 'profile') =>
    table([
      ['result', 'check', 'clauses'],
      ...report.results
        .filter((r) => r.level === level)
        .map((r) => [MARK[r.outcome], r.id, r.clauses.join(', ')]),
    ]);
  const matrix = table([
    ['result', 'clause', 'kind', 'proven by / why not'],
    ...report.matrix.map((c) => [MARK[c.outcome], c.id, c.kind, c.detail]),
  ]);
  const causes = report.sharedCauses.map(
    (cause) => `- ${cause.reason}
  (${cause.checks.length} checks: ${cause.checks.join(', ')})`,
  );
  const left =
    report.leftBehind.length > 0
      ? [`Left behind on the target (the run fails): ${report.leftBehind.join(', ')}`]
      : [];
  const mode = [
    report.destructive ? 'destructive' : 'read-only',
    report.specOnly ? 'spec only' : undefined,
    `level ${report.level}`,
  ].filter(Boolean);
  return [
    `Answers contract suite against ${report.baseUrl}${report.via ? ` (through ${report.via})` : ''}`,
    `run ${report.runId}, ${mode.join(', ')}; target description: ${report.description}`,
    '',
    `Spec checks (a rule the spec states): ${tally(report.levels.spec)}`,
    section('spec'),
    '',
    `Profile checks (our openapi.yaml's decisions): ${tally(report.levels.profile)}${report.level === 'spec' ? ' (not counted at --level spec)' : ''}`,
    section('profile'),
    ...(causes.length > 0 ? ['', 'Failures that share one cause', ...causes] : []),
    '',
    'Conformance matrix (stated clauses judged by spec checks only)',
    matrix,
    '',
    ...left,
    `${tally(report.counts)} in ${(report.durationMs / 1000).toFixed(1)} s: ${report.failed ? 'FAILED' : 'PASSED'} at level ${report.level}`,
  ].join('\n');
}

/**
 * Text for an XML attribute: markup characters escaped, and the characters XML 1.0 forbids
 * (control characters other than tab, newline and return, lone surrogates, U+FFFE and U+FFFF)
 * replaced by U+FFFD, so every CI parser reads the report.
 */
function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[<>&"'\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JUnit XML: a test suite per level, one test case per check named with its clauses. */
export function toJUnit(report: ContractReport): string {
  const suites = (['spec', 'profile'] as const).flatMap((level) => {
    const results = report.results.filter((r) => r.level === level);
    const counts = report.levels[level];
    const cases = results.map((r) => {
      const name = escapeXml(`${r.id}: ${r.title} [${r.clauses.join(', ')}]`);
      const body =
        r.outcome === 'fail'
          ? `<failure message="${escapeXml(r.reason ?? '')}"/>`
          : r.outcome === 'skip'
            ? `<skipped message="${escapeXml(r.reason ?? '')}"/>`
            : '';
      return `    <testcase classname="answers-contract.${level}" name="${name}" time="${(r.durationMs / 1000).toFixed(3)}">${body}</testcase>`;
    });
    return [
      `  <testsuite name="answers-contract.${level}" tests="${results.length}" failures="${counts.fail}" skipped="${counts.skip}" timestamp="${report.startedAt}">`,
      ...cases,
      '  </testsuite>',
    ];
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="answers-contract" tests="${report.results.length}" failures="${report.counts.fail}" skipped="${report.counts.skip}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
