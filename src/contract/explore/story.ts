import type { ExploreReport } from './explore.ts';

/** What `explore` prints: the verdict, the minimal story of a divergence and how to replay it, the coverage. */
export function formatExplore(report: ExploreReport, command: string): string {
  const lines: string[] = [];
  const { story } = report;
  lines.push(
    `${story ? 'DIVERGED' : 'AGREED'}: ${report.sequences} sequences, ${report.requests} requests in ${(report.elapsedMs / 1000).toFixed(1)} s (seed ${report.seed})`,
  );
  if (story) {
    lines.push('', `${story.clause}: ${story.message}`, '');
    story.steps.forEach((step, i) => {
      lines.push(
        `${i + 1}. ${step.request}`,
        `   model:  ${step.model}`,
        `   target: ${step.target}`,
      );
    });
    lines.push(
      '',
      `Replay exactly this sequence: ${command} --seed ${story.seed} --replay '${story.path}'`,
    );
  }
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
  );
  if (report.leftBehind.length > 0) lines.push('', `Left behind: ${report.leftBehind.join(', ')}`);
  return lines.join('\n');
}
