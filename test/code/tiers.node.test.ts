/**
 * Every test file is in exactly one tier (test/tiers.ts), so that no test silently stops running:
 * vitest runs only the files a tier's project includes, and a file in a folder no tier lists would
 * be run by no command and no CI step. test/README.md shows the same table, and the scripts and
 * .ci/run name every tier.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  LONGEST_FIRST,
  NODE_DECIDES,
  NODE_LINE,
  nodeLineIncludes,
  projectsOf,
  TEST_FOLDERS,
  TIER_PURPOSE,
  TIERS,
  tierOf,
} from '../tiers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every `*.test.ts` under `dir`, as paths from the repository root. */
function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .filter((entry) => !relative(ROOT, entry.parentPath).includes('node_modules'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

const FILES = [...testFiles('test'), ...testFiles('examples')];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the test tiers', () => {
  it('finds the test files it judges', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(FILES).toContain('test/code/tiers.node.test.ts');
  });

  it('lists as longest first only test files that exist, each once, in a tier that can start it first', () => {
    expect(LONGEST_FIRST.filter((file) => !FILES.includes(file))).toEqual([]);
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
    expect(LONGEST_FIRST.map(tierOf).filter((tier) => tier === 'fast')).toEqual([]);
  });

  it.each(FILES)('%s is in a tier', (file) => {
    expect(tierOf(file), `${file}: add its folder to test/tiers.ts`).toBeDefined();
  });

  it('lists each folder once, and only folders that hold tests', () => {
    const folders = TEST_FOLDERS.map((entry) => entry.folder);
    expect(folders.filter((folder, i) => folders.indexOf(folder) !== i)).toEqual([]);
    const holding = new Set(FILES.map((file) => file.slice(0, file.lastIndexOf('/'))));
    expect(folders.filter((folder) => !holding.has(folder))).toEqual([]);
  });

  it('runs Chromium files only in the install tier, which has a browser project for them', () => {
    const elsewhere = FILES.filter(
      (file) => file.endsWith('.browser.test.ts') && tierOf(file) !== 'install',
    );
    expect(elsewhere).toEqual([]);
  });

  it.each(TEST_FOLDERS.map((entry) => [entry.folder, entry.tier] as const))(
    'test/README.md puts %s in the %s tier',
    (folder, tier) => {
      const row = read('test/README.md')
        .split('\n')
        .find((line) => line.startsWith(`| \`${folder}/\``));
      expect(row, `no row for ${folder}/ in test/README.md`).toBeDefined();
      expect(row!.split('|')[2]!.trim()).toBe(`\`${tier}\``);
    },
  );

  it('test/README.md names every tier with its purpose, and each has a script', () => {
    const readme = read('test/README.md');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    for (const tier of TIERS) {
      expect(readme, tier).toContain(`- \`${tier}\`: ${TIER_PURPOSE[tier]}`);
      const runs = Object.values(scripts).some((script) =>
        new RegExp(`vitest run\\b.*--project '${tier}\\*'`).test(script),
      );
      expect(runs, `no npm script runs --project '${tier}*'`).toBe(true);
    }
  });

  it('.ci/run runs every tier: the npm scripts on Node 20, what a Node line can change on 22 and 24', () => {
    const ci = read('.ci/run');
    for (const command of ['npm test', 'npm run test:deep', 'npm run test:install'])
      expect(ci, command).toContain(command);
    expect(ci).toContain("vitest run --project 'fast*' --project 'engine*'");
    expect(ci).toMatch(/for major in 22 24\b/);
    expect(ci).toContain('with_node "$major" npm run test:node-line');
    expect(ci).toContain('vitest run --project install-msw');
  });
});

describe('what a Node line can change (NODE_LINE)', () => {
  const readme = read('test/README.md');
  /** The rows of test/README.md's table of NODE_LINE, by their first cell. */
  const rows = new Map(
    readme
      .slice(readme.indexOf('## What a Node line can change'))
      .split('\n')
      .filter((line) => /^\| `/.test(line))
      .map((line) => [line.split('|')[1]!.trim(), line.split('|')[2]!.trim()] as const),
  );
  const shown = (tests: string) => `\`${tests}${tests.endsWith('.test.ts') ? '' : '/'}\``;

  it.each(NODE_LINE.map((entry) => [entry.tests] as const))(
    '%s is a folder or a file of the fast or engine tier, listed once',
    (tests) => {
      const tier = tests.endsWith('.test.ts')
        ? FILES.includes(tests) && tierOf(tests)
        : TEST_FOLDERS.find((entry) => entry.folder === tests)?.tier;
      expect(['fast', 'engine']).toContain(tier);
      expect(NODE_LINE.filter((entry) => entry.tests === tests)).toHaveLength(1);
    },
  );

  it('names each thing Node decides by at least one test', () => {
    const named = new Set(NODE_LINE.flatMap((entry) => entry.decides));
    expect(Object.keys(NODE_DECIDES).filter((api) => !named.has(api as never))).toEqual([]);
  });

  it('selects exactly its tests among the projects of the fast and engine tiers', () => {
    const includes = (['fast', 'engine'] as const).flatMap((tier) =>
      projectsOf(tier).flatMap((project) => nodeLineIncludes(project.folders)),
    );
    const expected = NODE_LINE.map((entry) =>
      entry.tests.endsWith('.test.ts') ? entry.tests : `${entry.tests}/*.test.ts`,
    );
    expect(includes.sort()).toEqual(expected.sort());
  });

  it('runs no test less than once: every other test of fast and engine still runs on Node 20', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.test).toContain("vitest run --project 'fast*' --project 'engine*'");
    expect(scripts['test:node-line']).toBe(
      `ANSWERS_TESTS=node-line vitest run --project 'fast*' --project 'engine*'`,
    );
  });

  it('test/README.md shows what Node decides and the same table', () => {
    for (const [api, why] of Object.entries(NODE_DECIDES))
      expect(readme, api).toContain(`- \`${api}\`: ${why}`);
    expect([...rows.keys()].sort()).toEqual(NODE_LINE.map((entry) => shown(entry.tests)).sort());
    for (const entry of NODE_LINE)
      expect(rows.get(shown(entry.tests)), entry.tests).toBe(
        entry.decides.map((api) => `\`${api}\``).join(', '),
      );
  });
});
