/**
 * The README's test-author snippets are the regions of examples/node-tests/data.test.ts, which
 * the examples project runs: if either changes alone, this fails, so the README stays runnable.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const EXAMPLE = readFileSync(
  new URL('../examples/node-tests/data.test.ts', import.meta.url),
  'utf8',
);

/** The `// #region name` blocks of the example, indentation removed. */
function regions(): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of EXAMPLE.matchAll(
    /^( *)\/\/ #region (\S+)\n([\s\S]*?)^\1\/\/ #endregion \2$/gm,
  )) {
    const indent = match[1]!.length;
    const body = match[3]!
      .trimEnd()
      .split('\n')
      .map((line) => line.slice(indent))
      .join('\n');
    found.set(match[2]!, body);
  }
  return found;
}

it('shows each example region in the README, as a ts block, exactly', () => {
  const blocks = [...README.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());
  const found = regions();
  expect([...found.keys()]).toEqual(['seed', 'inspect', 'override']);
  for (const [name, body] of found) expect(blocks, name).toContain(body);
});
