/**
 * Issue 49's matrix: `snapshot` then `diff` against the independent server made each correct way
 * of test/independent/designs.ts, each holding 200 collections and 5,000 objects (names and text
 * in eight scripts, nested metadata) and another account's data. Every design is correct: any
 * spec or description difference is a false alarm of the kit; the profile decisions must be
 * exactly those designs.ts says the row makes otherwise than our openapi.yaml (`diffProfileOf`).
 * Deep tier: three rows by default, every row with DEEP=full.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DESIGNS,
  descriptionText,
  designName,
  diffProfileOf,
  serverOptions,
} from '../../independent/designs.ts';
import { seedData } from '../../independent/seed-data.ts';
import { startIndependentServer } from '../../independent/server.ts';
import { contract } from '../../support/contract-cli.ts';
import { DEEP_FULL } from '../../support/deep.ts';

/**
 * By default the first row of three paging styles (the engine tier's diff test covers a row of
 * next links); every row with DEEP=full.
 */
const DEFAULT_PAGING = new Set(['pages', 'cursor', 'link-header']);
const ROWS = DESIGNS.map((row, i) => ({ row, i })).filter(
  ({ row }, n, all) =>
    DEEP_FULL ||
    (DEFAULT_PAGING.has(row.paging) &&
      all.findIndex((each) => each.row.paging === row.paging) === n),
);

describe('snapshot then diff against each correct design, 5,000 objects', () => {
  for (const { row, i } of ROWS)
    it(`#${i + 1} ${designName(row)}`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'answers-diff-design-'));
      const log: Array<{ method: string; path: string }> = [];
      const server = await startIndependentServer({ ...serverOptions(row), log });
      try {
        await seedData(server, { collections: 200, objectsPer: 25 });
        // Two searches: an index that lags by searches (indexLag) has caught up, as a real
        // one has by the time a nightly job reads it.
        for (let n = 0; n < 2; n++)
          await fetch(`${server.url}/api/answers/query?q=warm`, {
            method: row.search === 'query' ? 'GET' : 'POST',
            headers: {
              authorization: `Bearer ${server.keys.full}`,
              'content-type': 'application/json',
            },
            ...(row.search === 'query' ? {} : { body: JSON.stringify({ q: 'warm' }) }),
          });
        log.length = 0;
        const target = join(dir, 'target.yaml');
        await writeFile(target, descriptionText(row));
        const common = [
          ...['--base-url', server.url, '--api-key', server.keys.full],
          ...['--other-account-key', server.keys.otherAccount, '--target', target],
        ];
        const state = join(dir, 'state.json');
        const snapped = await contract(['snapshot', ...common, '--out', state]);
        expect(snapped.code, snapped.stderr).toBe(0);
        expect(snapped.stdout).toMatch(/^Snapshot of \S+: 2\d\d collections, 50\d\d objects/m);
        const json = join(dir, 'diff.json');
        const diffed = await contract(['diff', ...common, '--snapshot', state, '--json', json]);
        const report = JSON.parse(await readFile(json, 'utf8')) as {
          compared: { objects: number };
          differences: Array<{ class: string; clause: string; message: string }>;
        };
        const of = (kind: string) =>
          [
            ...new Set(report.differences.filter((d) => d.class === kind).map((d) => d.clause)),
          ].sort();
        expect(of('spec'), diffed.stdout).toEqual([]);
        expect(of('description'), diffed.stdout).toEqual([]);
        expect(of('profile'), diffed.stdout).toEqual(diffProfileOf(row));
        expect(diffed.code, diffed.stderr).toBe(0);
        expect(report.compared.objects).toBeGreaterThanOrEqual(5_000);
        // Neither command wrote: every request was a GET, or the search operation.
        expect(
          log.filter((each) => each.method !== 'GET' && each.path !== '/api/answers/query'),
        ).toEqual([]);
      } finally {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      }
    }, 300_000);
});
