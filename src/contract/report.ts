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

/** The readable report: checks, the conformance matrix, and the totals. */
export function formatReport(report: ContractReport): string {
  const checks = table([
    ['result', 'check', 'level', 'clauses'],
    ...report.results.map((r) => [MARK[r.outcome], r.id, r.level, r.clauses.join(', ')]),
  ]);
  const matrix = table([
    ['result', 'clause', 'kind', 'proven by / why not'],
    ...report.matrix.map((c) => [MARK[c.outcome], c.id, c.kind, c.detail]),
  ]);
  const { pass, fail, skip } = report.counts;
  const left =
    report.leftBehind.length > 0
      ? `\nLeft behind (could not delete): ${report.leftBehind.join(', ')}`
      : '';
  return [
    `Answers contract suite against ${report.baseUrl} (run ${report.runId}${report.destructive ? ', destructive' : ', read-only'}${report.specOnly ? ', spec only' : ''})`,
    '',
    checks,
    '',
    'Conformance matrix',
    matrix,
    '',
    `${pass} passed, ${fail} failed, ${skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s${left}`,
  ].join('\n');
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JUnit XML: one test case per check, named with its clauses, for CI test reports. */
export function toJUnit(report: ContractReport): string {
  const cases = report.results.map((r) => {
    const name = escapeXml(`${r.id}: ${r.title} [${r.clauses.join(', ')}]`);
    const body =
      r.outcome === 'fail'
        ? `<failure message="${escapeXml(r.reason ?? '')}"/>`
        : r.outcome === 'skip'
          ? `<skipped message="${escapeXml(r.reason ?? '')}"/>`
          : '';
    return `    <testcase classname="answers-contract.${r.level}" name="${name}" time="${(r.durationMs / 1000).toFixed(3)}">${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="answers-contract" tests="${report.results.length}" failures="${report.counts.fail}" skipped="${report.counts.skip}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="answers-contract" tests="${report.results.length}" failures="${report.counts.fail}" skipped="${report.counts.skip}" timestamp="${report.startedAt}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
