/** The HTML view of `answers-contract diff`'s report (`--html`): a row per difference. */
import type { DiffDifference, DiffReport } from '../diff/report.ts';
import type { ClauseVerdict, ReportView } from './view.ts';

/** A difference fails the run when it is new and its class counts at `--fail-on`. */
function verdictOf(difference: DiffDifference, report: DiffReport): ClauseVerdict {
  const counts = report.failOn === 'profile' || difference.class !== 'profile';
  return difference.new && counts ? 'failed' : 'noted';
}

const LABEL: Record<DiffReport['verdict'], string> = {
  'no new differences': 'PASSED: no new differences',
  'new differences': 'FAILED: new differences',
  'nothing compared': 'NOTHING COMPARED',
};

export function diffView(report: DiffReport): ReportView {
  return {
    command: 'answers-contract diff',
    title: `${report.deployment} against the mock loaded with ${report.snapshot.file} (taken ${report.snapshot.takenAt})`,
    verdict: {
      label: `${LABEL[report.verdict]} at --fail-on ${report.failOn}`,
      passed: report.verdict === 'no new differences',
    },
    facts: [
      [
        'compared',
        `${report.compared.collections} collections, ${report.compared.objects} objects, ${report.compared.searches} searches`,
      ],
      [
        'requests',
        `${report.requests.deployment} to the deployment (reads only), ${report.requests.mock} to the mock`,
      ],
      ['alike', `${report.agreed} verdicts`],
      ...(report.baseline ? ([['baseline', report.baseline]] as Array<[string, string]>) : []),
    ],
    clausesAre: 'Differences, by class (spec, profile, description)',
    clauses: report.differences.map((difference) => ({
      id: difference.clause,
      verdict: verdictOf(difference, report),
      detail: `${difference.class}${report.baseline ? (difference.new ? ', new' : ', known') : ''}: ${difference.what}${difference.count > 1 ? ` (seen ${difference.count} times)` : ''}`,
    })),
    stories: report.differences.map((difference) => ({
      title: `${difference.class}: ${difference.what}`,
      clause: difference.clause,
      message: difference.message,
      sides: { model: 'the mock', target: 'the deployment' },
      steps: difference.request
        ? [{ request: difference.request, model: difference.mock, target: difference.deployment }]
        : [],
      difference: difference.difference,
    })),
    leftBehind: undefined,
    notes: report.notes,
  };
}
