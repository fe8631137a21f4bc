/** Markdown tables of the bench's figures. */

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const table = (rows: string[][]) =>
  [rows[0]!, rows[0]!.map(() => '---'), ...rows.slice(1)]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n');
