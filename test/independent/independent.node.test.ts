/**
 * Does answers-contract judge an implementation that is not ours fairly? The independent server
 * (server.ts, written from the spec alone) is run through the spec checks in-process, described by
 * target.yaml: the correct server passes. Each seeded variant (variants.ts) failing the check that
 * should catch it is proven in the deep tier (test/contract/proofs/suite-variants.node.test.ts).
 * docs/independent-server.md tells the story and keeps the same table.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKS, SPEC_CHECKS } from '../../src/contract/checks/index.ts';
import { BLIND_SPOT_VARIANTS } from './explore-variants.ts';
import { failedSpecIds, ROWS, run, TARGET } from './suite-runs.ts';

const DOC = fileURLToPath(new URL('../../docs/independent-server.md', import.meta.url));

describe('the correct independent server', () => {
  it('passes every spec check, leaves nothing behind and gives a reason for every skip', async () => {
    const report = await run(undefined, { checks: CHECKS });
    const spec = report.results.filter((r) => r.level === 'spec');
    expect(spec.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.failed).toBe(false);
    expect(report.leftBehind).toEqual([]);
    expect(spec.map((r) => r.id).sort()).toEqual(SPEC_CHECKS.map((c) => c.id).sort());
    for (const skipped of report.results.filter((r) => r.outcome === 'skip'))
      expect(skipped.reason, skipped.id).toMatch(/\S/);
    // Every spec check runs: none has a reason to skip against this server.
    expect(spec.filter((r) => r.outcome === 'skip')).toEqual([]);
    // Our profile checks judge our document's decisions: at the spec level they do not run at
    // all, so a green run shows no failure anywhere.
    expect(report.results.filter((r) => r.level === 'profile')).toEqual([]);
    expect(report.notRun?.checks.length).toBeGreaterThan(0);
    expect(report.counts.fail).toBe(0);
  }, 60_000);

  it('passes a read-only run too; what it skips, it skips for a reason', async () => {
    const report = await run(undefined, { destructive: false });
    expect(failedSpecIds(report)).toEqual([]);
    expect(report.failed).toBe(false);
    const skips = report.results
      .filter((r) => r.outcome === 'skip')
      .map((r) => `${r.id}: ${r.reason}`);
    expect(skips).toEqual(READ_ONLY_SKIPS);
  }, 60_000);
});

/** The skips of a run without --destructive, as docs/independent-server.md lists them. */
const READ_ONLY_SKIPS = [
  'auth.missing-permission: changes data: needs --destructive',
  'delete.object: changes data: needs --destructive',
  'delete.collection: changes data: needs --destructive',
  'delete.cascade: changes data: needs --destructive',
];

describe('docs/independent-server.md', () => {
  const doc = () => readFileSync(DOC, 'utf8');

  it('lists exactly the variants of variants.ts, with the checks that fail for each', () => {
    const code = (cell = '') => [...cell.matchAll(/`([a-z0-9.-]+)`/g)].map((match) => match[1]);
    const rows = doc()
      .split('\n')
      .filter((line) => /^\| `[a-z0-9-]+` +\|/.test(line))
      .map((line) => line.split('|'))
      .map((cells) => [code(cells[1])[0], code(cells[4])[0], code(cells[5])]);
    expect(rows).toEqual(
      ROWS.map((row) => [row.variant, row.caughtBy, [...(row.alsoFails ?? [])]]),
    );
  });

  it("lists exactly the variants aimed at explore's blind spots, with their clauses", () => {
    // @note Rows whose first cell is words, not code: neither other table's test reads them.
    const section = doc().split("## Variants aimed at explore's blind spots")[1] ?? '';
    const rows = section
      .split('\n## ')[0]!
      .split('\n')
      .filter((line) => /^\| [a-z][^|`]* +\| `[a-z0-9-]+` +\|/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim().replace(/^`|`$/g, '')))
      .map((cells) => [cells[2], cells[3]]);
    expect(rows).toEqual(BLIND_SPOT_VARIANTS.map((row) => [row.variant, row.clause]));
  });

  it('shows the target file as it is', () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(doc())?.[1];
    expect(block).toBe(readFileSync(TARGET, 'utf8'));
  });
});

describe('independence', () => {
  it('imports nothing of the mock: only node: modules and its own files', () => {
    for (const file of ['server.ts', 'store.ts', 'auth.ts', 'variants.ts']) {
      const text = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
      const imports = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
      expect(
        imports.filter((name) => !name.startsWith('node:') && !/^\.\/[a-z-]+\.ts$/.test(name)),
        file,
      ).toEqual([]);
    }
  });
});
