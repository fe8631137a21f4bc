/**
 * The spec is at ../shared/spec/ beside a clone, wherever the clone is: no file of the kit names a
 * path of one machine (the folder this kit was first written in) in its place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './doc-blocks.ts';

const TEXT = /\.(ts|js|mjs|md|ya?ml|json|sh)$/;
/** What .gitignore leaves out, and git's own folder. */
const SKIP = new Set([
  'node_modules',
  'dist',
  'coverage',
  '.tmp',
  'test-results',
  'screenshots',
  '.git',
]);
/** `/work/` and `shared/`, put together here so that this file does not name it itself. */
const MACHINE_PATH = new RegExp(['/work', 'shared/'].join('/'));

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : files(path);
    return TEXT.test(entry.name) ? [path] : [];
  });
}

it('names the spec by its relative path (../shared/spec/), never by one machine’s', () => {
  const all = files('');
  expect(all.length).toBeGreaterThan(100);
  const naming = all.filter((file) => MACHINE_PATH.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(naming).toEqual([]);
});
