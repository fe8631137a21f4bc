/** The HTML view of the suite's report (`answers-contract --html`). */
import type { ContractReport } from '../runner.ts';
import { stoppedBy } from '../run-verdict.ts';
import type { ClauseVerdict, ReportView } from './view.ts';
import { seconds } from './view.ts';

const CLAUSE_VERDICT: Record<ContractReport['matrix'][number]['outcome'], ClauseVerdict> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'not judged',
  'not testable': 'not judged',
  'not run': 'not judged',
};

const LABEL = {
  passed: 'PASSED',
  failed: 'FAILED',
  'nothing judged': 'NOTHING JUDGED',
  interrupted: 'INTERRUPTED',
} as const;

export function suiteView(report: ContractReport): ReportView {
  const { counts } = report;
  return {
    command: 'answers-contract',
    title: `The contract suite against ${report.baseUrl}${report.via ? ` (through ${report.via})` : ''}, target description: ${report.description}`,
    verdict: {
      label: `${LABEL[report.verdict]} at level ${report.level}`,
      passed: report.verdict === 'passed',
      why: report.nothingJudged ? `Nothing judged: ${stoppedBy(report.nothingJudged)}` : undefined,
    },
    facts: [
      ['run', report.runId],
      ['started', report.startedAt],
      ['took', seconds(report.durationMs)],
      ['checks', `${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped`],
      [
        'mode',
        `${report.destructive ? 'destructive' : 'read-only'}, ${report.concurrency} at once`,
      ],
      ['requests', String(report.requests)],
      ...(report.settle.polls > 0
        ? ([
            [
              'reads asked again',
              `${report.settle.polls}, the longest lag ${report.settle.maxLagMs} ms (--settle ${report.settle.ms})`,
            ],
          ] as Array<[string, string]>)
        : []),
      ...(report.notRun
        ? ([['not run', `${report.notRun.checks.length} checks: ${report.notRun.reason}`]] as Array<
            [string, string]
          >)
        : []),
    ],
    clauses: report.matrix.map((clause) => ({
      id: clause.id,
      verdict: CLAUSE_VERDICT[clause.outcome],
      detail: clause.detail,
    })),
    stories: report.results
      .filter((result) => result.outcome === 'fail')
      .map((result) => ({
        title: `${result.id}: ${result.title}`,
        clause: result.broken ?? result.clauses.join(', '),
        message: result.reason ?? '',
        sides: { model: 'expected', target: 'the target' },
        steps: [],
        difference: result.difference,
      })),
    pushback: report.pushback,
    leftBehind: report.leftBehind,
    notes: [
      ...report.sharedCauses.map(
        (cause) => `${cause.checks.length} checks failed for one cause: ${cause.reason}`,
      ),
      ...(report.foreignUrls.length > 0
        ? [
            `The target led the suite to other origins (never sent a key): ${report.foreignUrls.join(', ')}`,
          ]
        : []),
    ],
  };
}
