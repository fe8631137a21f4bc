/** The HTML view of `answers-contract explore`'s report (`--html`). */
import type { CoveredExploreReport } from '../explore/story.ts';
import type { ClauseRow, ReportView } from './view.ts';
import { countsText, reasonsText, seconds } from './view.ts';

/**
 * A clause's row, from the report's coverage: failed where the story diverged, passed where it
 * was judged where it could have failed, else not judged and why.
 */
function clauseRow(report: CoveredExploreReport, id: string): ClauseRow {
  const { coverage, clauseCoverage, story } = report;
  if (story?.clause === id) return { id, verdict: 'failed', detail: story.message };
  const judged = coverage.clauses[id] ?? 0;
  if (judged > 0)
    return { id, verdict: 'passed', detail: `agreed ${judged} times where it could have failed` };
  const out = clauseCoverage.notJudged?.[id];
  if (out !== undefined) return { id, verdict: 'not judged', detail: out };
  const vacuous = reasonsText(coverage.notJudged?.[id]);
  if (vacuous !== undefined)
    return { id, verdict: 'not judged', detail: `met only where it could not fail: ${vacuous}` };
  return {
    id,
    verdict: 'not judged',
    detail: clauseCoverage.reachable.includes(id)
      ? 'not reached in this run'
      : 'the target does not offer the operations it needs',
  };
}

export function exploreView(report: CoveredExploreReport, command: string): ReportView {
  const { story, clauseCoverage, coverage } = report;
  const ids = new Set([
    ...clauseCoverage.reachable,
    ...Object.keys(clauseCoverage.notJudged ?? {}),
    ...Object.keys(coverage.clauses),
    ...Object.keys(coverage.reached ?? {}),
    ...(story ? [story.clause] : []),
  ]);
  const label = story ? 'DIVERGED' : report.interrupted ? 'INTERRUPTED' : 'AGREED';
  return {
    command: 'answers-contract explore',
    title: `Random sequences sent to the target and to the kit's mock, compared on what the spec states (seed ${report.seed})`,
    verdict: {
      label,
      passed: label === 'AGREED' && report.leftBehind.length === 0,
      why: story ? `${story.clause}: ${story.message}` : undefined,
    },
    facts: [
      ['run', report.runId],
      ['seed', String(report.seed)],
      ['sequences', String(report.sequences)],
      [
        'requests',
        `${report.requests}${report.sentToTarget === undefined ? '' : ` (${report.sentToTarget} sent to the target, walk pages and clean-up included)`}`,
      ],
      ['took', seconds(report.elapsedMs)],
      [
        'coverage',
        `${clauseCoverage.reached.length} of ${clauseCoverage.reachable.length} clauses within reach (${clauseCoverage.percent}%)`,
      ],
      ['operations', countsText(coverage.operations)],
      ['statuses', countsText(coverage.statuses)],
      ...(report.cutShort
        ? ([['cut short', `${report.cutShort} sequences at the budget's end`]] as Array<
            [string, string]
          >)
        : []),
    ],
    clauses: [...ids].sort((a, b) => a.localeCompare(b)).map((id) => clauseRow(report, id)),
    stories: story
      ? [
          {
            title: `the shortest sequence found (${story.steps.length} steps)`,
            clause: story.clause,
            message: story.message,
            sides: { model: 'model (the kit’s mock)', target: 'target' },
            steps: story.steps,
            divergedAt: story.divergedAt,
            difference: story.difference,
            notes: [
              ...(story.asFirstSeen
                ? [
                    'Seen once: no replay while shrinking showed it again; the sequence as first seen.',
                  ]
                : []),
              ...(story.shownAgain
                ? [
                    `Shown again in ${story.shownAgain.shown} of ${story.shownAgain.of} replays within the run.`,
                  ]
                : []),
              `Replay exactly this sequence: ${command} --seed ${story.seed} --replay '${story.path}'`,
            ],
          },
        ]
      : [],
    pushback: report.pushback,
    leftBehind: report.leftBehind,
    notes: [
      ...(report.limits ?? []).map(
        (limit) =>
          `The target refused ${limit.count} writes past ${limit.measure} ${limit.largestTaken} (smallest refused: ${limit.smallest}), a limit the spec does not state; its description can state it (${limit.declare}).`,
      ),
      ...(report.pushedOff
        ? [
            `${report.pushedOff.count} sequences ended, not judged, at pushback explore does not wait for (${report.pushedOff.reason ?? 'a 429'}).`,
          ]
        : []),
    ],
  };
}
