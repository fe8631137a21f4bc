import { leftBehindLines } from '../interrupt.ts';
import { junitXml, runCases, type JUnitCase } from '../runner/junit.ts';
import {
  coverageShortfall,
  formatClauseCoverage,
  percentText,
  type ClauseCoverage,
} from './coverage.ts';
import type { ExploreReport } from './explore.ts';

/** A report of `explore` with the share of the clauses within reach that it reached. */
export type CoveredExploreReport = ExploreReport & { clauseCoverage: ClauseCoverage };

type Story = NonNullable<ExploreReport['story']>;

/** The story of a divergence as printed: its clause, its numbered steps, how to replay it. */
function storyLines(story: Story, command: string): string[] {
  const lines = [`${story.clause}: ${story.message}`];
  if (story.asFirstSeen)
    lines.push(
      'Seen once, as below; no replay while shrinking showed it again (a bug of timing or ids?): the sequence as first seen.',
    );
  const again = story.shownAgain;
  if (again)
    lines.push(
      again.of === 0
        ? 'Not replayed within this run (it was interrupted).'
        : `Shown again in ${again.shown} of ${again.of} replays of this sequence within this run.`,
    );
  lines.push('');
  // @note The step that diverged: the last, but for a walk whose own writes come after it.
  story.steps.forEach((step, i) => {
    lines.push(
      `${i + 1}. ${step.request}`,
      `   model:  ${step.model}`,
      `   target: ${step.target}`,
    );
    if (i === (story.divergedAt ?? story.steps.length - 1))
      lines.push(`   ^ diverged here (${story.clause})`);
  });
  if (story.steps.some((step) => / word \d/.test(step.request)))
    lines.push(
      '',
      'Words: a sequence plants word 0, 1 or 2 (zq<run id>s<sequence>w<n>, unique to it) at the start of the text of each object it writes; a search asks for one of them.',
    );
  if (story.unwindowed)
    lines.push(
      '',
      `If the target shows such a write a moment later by design, say how long in its description (consistency: { ${story.unwindowed}: <ms> }) or give --settle <ms> for one run: a read within the window is asked again. None was given, so it was judged at once.`,
    );
  lines.push(
    '',
    `Replay exactly this sequence: ${command} --seed ${story.seed} --replay '${story.path}'`,
    ...replayCaveats(story),
  );
  return lines;
}

/**
 * When the replay line may not show the divergence again. Its steps and values are the story's;
 * the names and words it writes are not: the replays within the run wrote under the run's id, a
 * replay run writes under a new one (of another length, maybe), with other ids from the target,
 * so a bug of lengths, ids or where a text is cut may not show. And one that not every replay
 * within the run showed depends on timing (or on names: each replay is a sequence of its own).
 */
function replayCaveats(story: Story): string[] {
  const again = story.shownAgain;
  const lines = [
    '  It replays the steps and values, not the names, ids or timing: it writes under a new run id (names and planted words may differ in length) and gets new ids, so a divergence that depends on them, or on where a text is cut, may not show again.',
  ];
  if (again && again.of > 0 && again.shown < again.of)
    lines.push(
      `  Not every replay within this run showed it (${again.shown} of ${again.of}): it depends on timing, names or what else the target held, and may not show again.`,
    );
  return lines;
}

/**
 * What `explore` prints: the verdict, the minimal story of a divergence and how to replay it, the
 * coverage, what the budget stopped and left, and last whether it falls short of `minCoverage`
 * (`--min-coverage`). `baseUrl` is the target's, for the `sweep --run` line.
 */
export function formatExplore(
  report: CoveredExploreReport,
  command: string,
  minCoverage?: number,
  baseUrl?: string,
): string {
  const lines: string[] = [];
  const { story } = report;
  lines.push(
    `${story ? 'DIVERGED' : report.interrupted ? 'INTERRUPTED' : 'AGREED'}: ${report.sequences} sequences, ${report.requests} requests in ${(report.elapsedMs / 1000).toFixed(1)} s (seed ${report.seed})${report.sentToTarget === undefined ? '' : `; ${report.sentToTarget} sent to the target, walk pages and clean-up included`}`,
  );
  if (story) lines.push('', ...storyLines(story, command));
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, n]) => `${name} ${n}`)
      .join(', ') || 'none';
  lines.push(
    '',
    `Reached: operations ${counts(report.coverage.operations)}`,
    `         clauses ${counts(report.coverage.clauses)}`,
    `         statuses ${counts(report.coverage.statuses)}`,
    formatClauseCoverage(report.clauseCoverage),
  );
  const waits = report.pushback;
  if (waits && (waits.waits > 0 || waits.notWaited > 0))
    lines.push(
      '',
      `The target asked explore to wait ${waits.waits} times (429 or 503 with Retry-After): ${(waits.waitedMs / 1000).toFixed(1)} s waited${waits.notWaited > 0 ? `; ${waits.notWaited} longer waits not honoured` : ''}`,
    );
  for (const limit of report.limits ?? [])
    lines.push(
      '',
      `The target refused ${limit.count} writes past ${limit.measure} ${limit.largestTaken} (the smallest refused: ${limit.smallest}), a limit the spec does not state: those sequences ended there, not judged, and the run kept below ${limit.smallest} after. Its description can state it (${limit.declare}, or up to ${limit.smallest - 1}).${limit.alongWith ? ` That body went past ${limit.alongWith.join(', ')} too: the target refused it for one of them.` : ''}`,
    );
  const pushedOff = report.pushedOff;
  if (pushedOff)
    lines.push(
      '',
      `${pushedOff.count} sequences ended, not judged, at pushback explore does not wait for (${pushedOff.reason ?? 'a 429'}); a lower --concurrency sends fewer requests at once.`,
    );
  // @note The budget stopped sequences in flight (a slow or stalled target): they were cleaned
  // up as after a signal, and the run says what is left, with the line that deletes it. An
  // interrupted run prints its own Left behind lines (command.ts).
  if (report.cutShort && !report.interrupted)
    lines.push(
      '',
      `The budget stopped ${report.cutShort} sequences in flight: their requests were given up and their clean-up ran.`,
      ...leftBehindLines({ ...report, baseUrl: baseUrl ?? '<the target>' }),
    );
  // @note Whatever is left, even what could not be listed: the run's id and the line that
  // deletes its data.
  else if (report.leftBehind.length > 0 && !report.interrupted)
    lines.push('', ...leftBehindLines({ ...report, baseUrl: baseUrl ?? '<the target>' }));
  const shortfall = coverageShortfall(report.clauseCoverage, minCoverage);
  if (shortfall) lines.push('', shortfall);
  return lines.join('\n');
}

/**
 * `explore`'s JUnit XML: one test suite, a passing test case per clause reached, the story's
 * clause failing with the printed story when the run diverged, and a "coverage" test case that
 * fails when the run falls short of `minCoverage`.
 */
export function exploreJUnit(
  report: CoveredExploreReport,
  command: string,
  minCoverage?: number,
): string {
  const { story, clauseCoverage } = report;
  // @note A clause a divergence names is a test case even when the run never counted it
  // (a step may throw before it counts its clause).
  const clauses = [
    ...new Set([...Object.keys(report.coverage.clauses), ...(story ? [story.clause] : [])]),
  ].sort((a, b) => a.localeCompare(b));
  const cases: JUnitCase[] = clauses.map((clause) => ({
    classname: 'explore',
    name: clause,
    ...(clause === story?.clause
      ? {
          failure: {
            message: `${story.clause}: ${story.message}`,
            text: storyLines(story, command).join('\n'),
          },
        }
      : {}),
  }));
  const shortfall = coverageShortfall(clauseCoverage, minCoverage);
  const coverageText = formatClauseCoverage(clauseCoverage);
  cases.push({
    classname: 'explore',
    name: 'coverage',
    ...(shortfall
      ? { failure: { message: shortfall, text: coverageText } }
      : { out: coverageText }),
  });
  cases.push(...runCases('explore', report));
  const properties: Array<[string, string | number]> = [
    ['seed', report.seed],
    ['sequences', report.sequences],
    ['requests', report.requests],
    ['clause-coverage', percentText(clauseCoverage.percent)],
    ...(minCoverage === undefined ? [] : [['min-coverage', minCoverage] as [string, number]]),
    ...(report.leftBehind.length > 0
      ? [['left-behind', report.leftBehind.join(', ')] as [string, string]]
      : []),
  ];
  const name = 'answers-contract explore';
  return junitXml(name, [{ name, cases, properties, timeMs: report.elapsedMs }], report.elapsedMs);
}
