/**
 * What `diff` reports: its findings grouped (one difference per clause and thing compared, with
 * how often it was seen and its first evidence), what is new since a baseline, and the verdict at
 * the chosen level, as text, `--json` and `--junit`.
 */
import { tellDifference } from '../judges/difference.ts';
import { junitXml, runCases, type JUnitCase } from '../runner/junit.ts';
import type { DiffClass, Finding, Judged } from './judge.ts';

/** The level a run fails at: `spec` (a spec or description difference), `profile` (any). */
export type FailOn = 'spec' | 'profile';

export interface DiffDifference extends Finding {
  /** The same from run to run over an unchanged deployment: what a baseline is matched on. */
  id: string;
  /** How often it was seen (the first seen is the evidence shown). */
  count: number;
  /** Not in the baseline (every difference is new without one). */
  new: boolean;
}

export interface DiffReport {
  format: 'answers-diff/1';
  deployment: string;
  snapshot: { file: string; takenAt: string };
  compared: { collections: number; objects: number; searches: number };
  requests: { deployment: number; mock: number };
  /** Verdicts that found the two sides alike, or the deployment within the spec. */
  agreed: number;
  failOn: FailOn;
  baseline?: string | undefined;
  differences: DiffDifference[];
  notes: string[];
  /** `nothing compared` when the snapshot held nothing of the key's account to read. */
  verdict: 'no new differences' | 'new differences' | 'nothing compared';
}

const CLASS_ORDER: DiffClass[] = ['spec', 'profile', 'description'];

/** The differences of one run, grouped, marked new against `baseline`'s ids. */
export function groupFindings(
  findings: readonly Finding[],
  baseline: ReadonlySet<string> | undefined,
): DiffDifference[] {
  const groups = new Map<string, DiffDifference>();
  for (const finding of findings) {
    const id = `${finding.class} ${finding.clause} ${finding.what}${finding.seen === 'declared' ? ' (declared)' : ''}`;
    const known = groups.get(id);
    if (known) known.count += 1;
    else groups.set(id, { ...finding, id, count: 1, new: !baseline?.has(id) });
  }
  return [...groups.values()].sort(
    (a, b) =>
      CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class) ||
      (a.clause < b.clause ? -1 : a.clause > b.clause ? 1 : 0) ||
      (a.id < b.id ? -1 : 1),
  );
}

/** Whether a difference fails the run at `level`: description differences fail at every level. */
function failsAt(difference: DiffDifference, level: FailOn): boolean {
  return difference.new && (level === 'profile' || difference.class !== 'profile');
}

export function diffVerdict(
  judged: Judged,
  differences: readonly DiffDifference[],
  level: FailOn,
  compared: number,
): DiffReport['verdict'] {
  if (compared === 0 || (judged.agreed === 0 && differences.length === 0))
    return 'nothing compared';
  return differences.some((each) => failsAt(each, level))
    ? 'new differences'
    : 'no new differences';
}

const HEADINGS: Record<DiffClass, string> = {
  spec: 'Spec: the deployment breaks a rule the spec states',
  profile:
    'Profile: the deployment decides an open point unlike our openapi.yaml (where the mock would mislead a frontend)',
  description: 'Description: the target description does not fit what the deployment answers',
};

/** The report as printed. */
export function formatDiff(report: DiffReport): string {
  const lines = [
    `Diff of ${report.deployment} against the mock loaded with ${report.snapshot.file} (taken ${report.snapshot.takenAt})`,
    `Compared ${report.compared.collections} collections, ${report.compared.objects} objects, ${report.compared.searches} searches: ${report.requests.deployment} requests to the deployment (reads only), ${report.requests.mock} to the mock; ${report.agreed} verdicts alike`,
    ...(report.baseline ? [`Baseline: ${report.baseline}`] : []),
  ];
  for (const kind of CLASS_ORDER) {
    const mine = report.differences.filter((each) => each.class === kind);
    lines.push(
      '',
      `${HEADINGS[kind]}: ${mine.length}${report.baseline ? ` (${mine.filter((each) => each.new).length} new since the baseline)` : ''}`,
    );
    for (const each of mine) {
      const mark = report.baseline ? (each.new ? '[new] ' : '[known] ') : '';
      lines.push(
        `  ${mark}${each.clause} ${each.what}${each.count > 1 ? ` (seen ${each.count} times)` : ''}${each.seen === 'declared' ? ' (declared)' : ''}`,
      );
      lines.push(`      ${each.message}`);
      if (each.request) lines.push(`      request: ${each.request}`);
      if (each.deployment !== undefined) lines.push(`      the deployment: ${each.deployment}`);
      if (each.mock !== undefined) lines.push(`      the mock: ${each.mock}`);
      if (each.difference)
        lines.push(`      first difference: ${tellDifference(each.difference, 'the mock')}`);
    }
  }
  if (report.notes.length)
    lines.push('', 'Notes (data, not behaviour):', ...report.notes.map((note) => `  ${note}`));
  const failing = report.differences.filter((each) => failsAt(each, report.failOn)).length;
  lines.push(
    '',
    report.verdict === 'nothing compared'
      ? 'Result: NOTHING COMPARED: the snapshot holds no collection of the --api-key account to read'
      : report.verdict === 'new differences'
        ? `Result: FAILED: ${failing} new differences at --fail-on ${report.failOn}`
        : `Result: PASSED: no new differences at --fail-on ${report.failOn}`,
  );
  return lines.join('\n');
}

/** `--junit`: a case per difference (failed where it fails the run), and the run's own cases. */
export function diffJUnit(report: DiffReport): string {
  const cases: JUnitCase[] = report.differences.map((each) => ({
    classname: `diff.${each.class}`,
    name: `${each.clause} ${each.what}`,
    ...(failsAt(each, report.failOn)
      ? { failure: { message: each.message, type: each.class, text: each.request } }
      : {
          out: `${each.new ? 'new' : 'known'} (not failing at --fail-on ${report.failOn}): ${each.message}`,
        }),
  }));
  cases.push(
    ...runCases('diff', {
      leftBehind: [],
      nothingJudged:
        report.verdict === 'nothing compared'
          ? 'the snapshot holds no collection of the --api-key account to read'
          : undefined,
    }),
  );
  if (cases.length === 0)
    cases.push({ classname: 'diff', name: `${report.agreed} verdicts alike` });
  return junitXml('answers-contract diff', [{ name: 'diff', cases }]);
}
