/** The HTML view of `answers-contract replay`'s report (`--html`). */
import { judgedNothing } from '../replay/nothing-judged.ts';
import type { ReplayReport } from '../replay/outcome.ts';
import type { ClauseRow, ReportView } from './view.ts';
import { countsText, reasonsText, seconds } from './view.ts';

/** A clause's row: failed where a consumer test diverged on it, passed where judged, else why not. */
function clauseRow(report: ReplayReport, id: string): ClauseRow {
  const diverged = report.sequences.filter((s) => s.divergence?.clause === id);
  if (diverged.length > 0)
    return {
      id,
      verdict: 'failed',
      detail: `diverged in ${diverged.map((s) => s.name).join(', ')}`,
    };
  const judged = report.coverage.clauses[id] ?? 0;
  if (judged > 0) return { id, verdict: 'passed', detail: `agreed in ${judged} exchanges` };
  return {
    id,
    verdict: 'not judged',
    detail: `met only where it could not fail: ${reasonsText(report.coverage.notJudged[id]) ?? 'no exchange'}`,
  };
}

export function replayView(report: ReplayReport): ReportView {
  const ids = new Set([
    ...Object.keys(report.coverage.clauses),
    ...Object.keys(report.coverage.notJudged),
    ...report.sequences.flatMap((s) => (s.divergence ? [s.divergence.clause] : [])),
  ]);
  const count = (test: (s: ReplayReport['sequences'][number]) => boolean) =>
    report.sequences.filter(test).length;
  const failed = count((s) => Boolean(s.divergence)) > 0 || report.leftBehind.length > 0;
  const label = report.passed
    ? 'PASSED'
    : !failed && report.nothingJudged !== undefined
      ? 'NOTHING JUDGED'
      : 'FAILED';
  return {
    command: 'answers-contract replay',
    title: `Your tests' exchanges replayed against ${report.baseUrl}, judged against what they saw`,
    verdict: { label, passed: report.passed, why: report.nothingJudged },
    facts: [
      ['run', report.runId],
      [
        'consumer tests',
        `${report.sequences.length}: ${count((s) => !s.notReplayed && !s.divergence && !judgedNothing(s))} agreed, ${count((s) => Boolean(s.divergence))} diverged, ${count((s) => Boolean(s.notReplayed))} not replayed, ${count(judgedNothing)} judged nothing`,
      ],
      [
        'files',
        report.files.map((f) => `${f.file} (${f.tests} tests, ${f.judged} judged)`).join('; '),
      ],
      ['requests', `${report.sentToTarget} sent to the target`],
      ['took', seconds(report.elapsedMs)],
      ['operations', countsText(report.coverage.operations)],
    ],
    clauses: [...ids].sort((a, b) => a.localeCompare(b)).map((id) => clauseRow(report, id)),
    stories: report.sequences.flatMap((sequence) =>
      sequence.divergence
        ? [
            {
              title: sequence.name,
              clause: sequence.divergence.clause,
              message: sequence.divergence.message,
              sides: { model: 'what your test saw', target: 'target' },
              steps: sequence.divergence.steps,
              divergedAt: sequence.divergence.divergedAt,
              difference: sequence.divergence.difference,
            },
          ]
        : [],
    ),
    pushback: report.pushback,
    leftBehind: report.leftBehind,
    notes: Object.entries(report.compatibility).map(
      ([note, n]) =>
        `Compatibility (${report.strictCompatibility ? 'fails the run: --strict-compatibility' : 'not a failure'}): ${note} (${n} exchanges)`,
    ),
  };
}
