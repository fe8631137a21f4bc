/** The soak's table: each metric, its value, its target and whether it was met. */

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const mib = (bytes: number) => `${fmt(bytes / 1_048_576, 1)} MiB`;
export const change = (after: number, before: number) => (after - before) / before;
export const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${fmt(ratio * 100, 1)}%`;

export interface Row {
  metric: string;
  value: string;
  target?: string;
  ok?: boolean;
}

export function printTable(rows: Row[]): void {
  const cells = rows.map((r) => [
    r.metric,
    r.value,
    r.target ?? '',
    r.ok === undefined ? '' : r.ok ? 'ok' : 'MISSED',
  ]);
  const header = ['metric', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join(
      '\n',
    ),
  );
}
