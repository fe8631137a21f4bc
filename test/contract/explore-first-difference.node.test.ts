/**
 * A story names the first difference: against a target that mangles one character far into a long
 * text (as a server that splits a multi-byte character at a chunk boundary does), explore's
 * console, `--json` and `--junit` name its JSON pointer, the offset where the texts part and the
 * characters around it on each side, never two identical prefixes cut at 120 characters.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { exploreCommand } from '../../src/contract/explore/command.ts';
import type { CoveredExploreReport } from '../../src/contract/explore/story.ts';
import { KEYS } from '../support/keys.ts';
import { MANGLED_AT as AT, startManglingTarget } from '../support/mangling-target.ts';

let target: Awaited<ReturnType<typeof startManglingTarget>>;
let folder: string;
beforeAll(async () => {
  target = await startManglingTarget();
  folder = await mkdtemp(join(tmpdir(), 'explore-first-difference-'));
});
afterAll(async () => {
  await target.close();
  await rm(folder, { recursive: true, force: true });
});

it('names the pointer, the offset and the characters where a long text was mangled, in the console, --json and --junit', async () => {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  const json = join(folder, 'report.json');
  const junit = join(folder, 'report.xml');
  let exit: number;
  try {
    exit = await exploreCommand(
      [
        'node',
        'answers-contract',
        'explore',
        '--base-url',
        target.baseUrl,
        '--api-key',
        KEYS.full,
        '--destructive',
        '--seed',
        '1',
        '--concurrency',
        '1',
        '--max-steps',
        '6',
        '--max-requests',
        '3000',
        '--budget',
        '30s',
        '--shrink-budget',
        '10s',
        '--json',
        json,
        '--junit',
        junit,
      ],
      startExploreModel,
    );
  } finally {
    vi.restoreAllMocks();
  }
  const printed = out.join('');
  expect(exit, printed).toBe(1);
  const report = JSON.parse(await readFile(json, 'utf8')) as CoveredExploreReport;
  const story = report.story!;
  expect(story.clause).toBe('OBJ-GET-1');
  // --json: the difference as fields.
  const difference = story.difference!;
  expect(difference.pointer).toBe('/long');
  expect(difference.offset).toBe(AT);
  expect(difference.at).toEqual({ expected: expect.stringMatching(/^U\+/), actual: 'U+FFFD' });
  // Both sides around it, cut on both ends, apart only at the mangled character.
  expect(difference.expected).toMatch(/^"….+…"$/);
  expect(difference.actual).toMatch(/^"….+\uFFFD.+…"$/);
  expect(difference.expected).not.toBe(difference.actual);
  expect(difference.expected.replace(/^"…(.*)…"$/, '$1').length).toBeLessThan(120);
  // The console says it, and so does the story's message in --json.
  const told = `at /long, character ${AT} (counted in code points): what was sent has ${difference.expected} (${difference.at!.expected}), the target ${difference.actual} (U+FFFD)`;
  expect(printed).toContain(`OBJ-GET-1: its content: ${told}`);
  expect(story.message).toContain(told);
  // --junit: the failing test case's message and text.
  const xml = await readFile(junit, 'utf8');
  expect(xml).toContain(`character ${AT} (counted in code points)`);
  expect(xml).toContain('\uFFFD');
  expect(report.leftBehind).toEqual([]);
}, 120_000);
