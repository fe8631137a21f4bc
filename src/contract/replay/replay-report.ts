/** What `replay` prints, and its JUnit report: a test case per consumer test. */
import { junitXml, runCases, type JUnitCase } from '../runner/junit.ts';
import { judgedNothing } from './nothing-judged.ts';
import type { ReplayedSequence, ReplayReport } from './outcome.ts';

/** Whether a finished replay is not a pass: a divergence, data left behind, or nothing judged. */
export function replayFailed(report: ReplayReport): boolean {
  return !report.passed;
}

/**
 * The exit status of a finished replay: 1 when a sequence diverged or data was left behind (or,
 * with `--strict-compatibility`, a compatibility note was made), else
 * 2 when a file (or the run) judged nothing (a set-up error: keys, description, --destructive),
 * else 0.
 */
export function replayExitStatus(report: ReplayReport): 0 | 1 | 2 {
  if (report.sequences.some((s) => s.divergence) || report.leftBehind.length > 0) return 1;
  if (report.strictCompatibility && Object.keys(report.compatibility).length > 0) return 1;
  return report.nothingJudged === undefined ? 0 : 2;
}

function notJudgedText(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([why, n]) => `${n} ${why}`)
    .join('; ');
}

function sequenceLines(sequence: ReplayedSequence): string[] {
  const { divergence, outcome } = sequence;
  if (sequence.notReplayed) return [`- ${sequence.name}: not replayed (${sequence.notReplayed})`];
  // @note A test none of whose exchanges was judged agreed with nothing: never a ✓.
  if (judgedNothing(sequence))
    return [
      `- ${sequence.name}: nothing judged (${notJudgedText(outcome.notJudged) || 'it holds no exchange'})`,
    ];
  const notJudged = Object.values(outcome.notJudged).reduce((a, b) => a + b, 0);
  const tally = `${outcome.judged} judged${notJudged ? `, ${notJudged} not judged` : ''}`;
  if (!divergence) return [`✓ ${sequence.name} (${tally})`];
  const lines = [`✗ ${sequence.name}`, `  ${divergence.clause}: ${divergence.message}`, ''];
  divergence.steps.forEach((step, i) => {
    lines.push(
      `  ${i + 1}. ${step.request}`,
      `     consumer saw: ${step.model}`,
      `     target:       ${step.target}`,
    );
    if (i === divergence.divergedAt) lines.push(`     ^ diverged here (${divergence.clause})`);
  });
  return lines;
}

/** The report as printed: each consumer test, its story when it diverged, then the totals. */
export function formatReplay(report: ReplayReport): string {
  const lines = report.sequences.flatMap(sequenceLines);
  const count = (test: (s: ReplayedSequence) => boolean) => report.sequences.filter(test).length;
  const exchanges = report.sequences.reduce((n, s) => n + s.exchanges, 0);
  const notJudged: Record<string, number> = {};
  for (const sequence of report.sequences)
    for (const [why, n] of Object.entries(sequence.outcome.notJudged))
      notJudged[why] = (notJudged[why] ?? 0) + n;
  lines.push(
    '',
    `Replayed ${report.sequences.length} consumer tests (${exchanges} exchanges) against ${report.baseUrl}: ` +
      `${count((s) => !s.notReplayed && !s.divergence && !judgedNothing(s))} agreed, ${count((s) => Boolean(s.divergence))} diverged, ` +
      `${count((s) => Boolean(s.notReplayed))} not replayed${count(judgedNothing) > 0 ? `, ${count(judgedNothing)} judged nothing` : ''}.`,
  );
  if (Object.keys(notJudged).length > 0)
    lines.push(`Exchanges not judged: ${notJudgedText(notJudged)}.`);
  const notes = Object.entries(report.compatibility);
  if (notes.length > 0)
    lines.push(
      `Compatibility notes: what your tests rely on that this deployment decides otherwise, where the spec leaves it open (${report.strictCompatibility ? 'failing the run: --strict-compatibility' : 'not failures; --strict-compatibility fails on them'}):`,
      ...notes.map(([note, n]) => `- ${note} (${n} exchange${n === 1 ? '' : 's'})`),
    );
  const { waits, waitedMs } = report.pushback;
  lines.push(
    `Requests sent to the target: ${report.sentToTarget} in ${(report.elapsedMs / 1000).toFixed(1)} s` +
      `${waits > 0 ? `; it asked to wait ${waits} times (429/503), ${Math.round(waitedMs)} ms in all` : ''}. Run id: ${report.runId}.`,
  );
  if (!report.interrupted)
    lines.push(
      report.leftBehind.length === 0
        ? 'Left behind: nothing'
        : `Left behind: ${report.leftBehind.join(', ')}`,
    );
  if (report.nothingJudged !== undefined)
    for (const file of report.files)
      if (file.nothingJudged !== undefined)
        lines.push(`Nothing was judged in ${file.file}: ${file.nothingJudged}.`);
  return lines.join('\n');
}

/** JUnit XML: a test case per consumer test, failing with its clause when it diverged. */
export function replayJUnit(report: ReplayReport): string {
  const cases: JUnitCase[] = report.sequences.map((sequence) => {
    const [file, ...rest] = sequence.name.split(' > ');
    const named = {
      classname: rest.length > 0 ? file! : 'replay',
      name: rest.length > 0 ? rest.join(' > ') : sequence.name,
    };
    if (sequence.notReplayed) return { ...named, skipped: sequence.notReplayed };
    if (judgedNothing(sequence))
      return { ...named, skipped: `nothing judged: ${notJudgedText(sequence.outcome.notJudged)}` };
    const { divergence } = sequence;
    if (!divergence) return named;
    const message = `${divergence.clause}: ${divergence.message}`;
    const text = sequenceLines(sequence).join('\n');
    return { ...named, failure: { message, type: divergence.clause, text } };
  });
  // @note A file that judged nothing is a set-up error, a JUnit <error>: never a suite of skips
  // that CI shows green.
  const unjudged =
    report.nothingJudged === undefined ? [] : report.files.filter((f) => f.nothingJudged);
  cases.push(...runCases('replay', { leftBehind: report.leftBehind }));
  for (const file of unjudged)
    cases.push({
      classname: 'replay',
      name: file.file,
      error: { message: `nothing judged: ${file.nothingJudged}` },
    });
  const name = 'answers-contract replay';
  return junitXml(name, [{ name, cases }], report.elapsedMs);
}
