/**
 * The README is executable (test/new-user/readme.node.test.ts runs every line as a new user types
 * it). This file holds what needs no install: every fenced block of the README and of the examples'
 * READMEs carries a `<!-- doc-test: id -->` marker, each has a way to be tested
 * (test/docs/readme-plan.ts), the snippets the README shows are the example files as they are, and
 * every line left out names its reason.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineCommands, readDocument, ROOT, shellCommands } from './doc-blocks.ts';
import { block, BLOCKS, HOW, INLINE, regions, SHELL_BLOCKS_RUN_BY } from './readme-plan.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';

const DATA_TEST = readDocument('examples/node-tests/data.test.ts');

/** What a snippet may call without an import: vitest's globals it imports, and methods. */
const GLOBAL_CALLS = new Set(['it', 'describe', 'expect', 'beforeEach', 'toBe', 'toEqual']);

describe('what the documents show', () => {
  it('marks every fenced block of the README and the examples with a doc-test id, each once', () => {
    const unmarked = BLOCKS.filter((b) => b.id === undefined).map((b) => `${b.document}:${b.line}`);
    expect(unmarked).toEqual([]);
    const ids = BLOCKS.map((b) => b.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has a way to test every marked block, and a block for every way', () => {
    expect(BLOCKS.map((b) => b.id).sort()).toEqual(Object.keys(HOW).sort());
  });

  it('shows each region of examples/node-tests/data.test.ts in the README, exactly', () => {
    const found = regions(DATA_TEST);
    expect([...found.keys()]).toEqual(['test-head', 'seed', 'inspect', 'override', 'leave-out']);
    for (const [name, body] of found)
      expect(block(name === 'test-head' ? 'node-test-head' : name).body, name).toBe(body);
  });

  it('shows an update in parts that the loader reads as two requests, each with its body', () => {
    const { operations, bodies } = parseTargetDescription(block('update-parts').body, 'README');
    expect(operations.updateCollection?.parts).toEqual([
      {
        method: 'PATCH',
        path: '/api/answers/collections/{collection_id}',
        body: { name: '{name}' },
      },
      {
        method: 'PUT',
        path: '/api/answers/collections/{collection_id}/metadata',
        body: '{metadata}',
      },
    ]);
    expect(bodies.updateCollection).toBeUndefined();
    // The spec-only server's own description states its update so (explored in test/spec-only).
    expect(readDocument('test/spec-only/target.yaml')).toContain(
      block('update-parts').body.split('\n').slice(2).join('\n').trimEnd(),
    );
  });

  it('shows examples/node-tests/answers-client.ts, the code the snippets test, whole', async () => {
    const client = await readFile(join(ROOT, 'examples/node-tests/answers-client.ts'), 'utf8');
    expect(block('node-client').body).toBe(client);
  });

  it('has the snippets of the Node test section import only the kit, msw, vitest and what it shows', () => {
    const head = block('node-test-head').body;
    const from = [...head.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(from.sort()).toEqual(
      ['./answers-client.ts', './setup.ts', 'answers-mock-kit', 'msw', 'vitest'].sort(),
    );
    // Every name the snippets call is imported by the head or defined in a block shown.
    const shown = `${head}\n${block('node-client').body}\n${block('node-setup-msw2').body}`;
    for (const id of ['seed', 'inspect', 'override', 'leave-out']) {
      const body = block(id).body;
      // Names the snippet declares itself: `const x =`, `const [x] =`, `(x) =>`.
      const local = new Set(
        [...body.matchAll(/(?:const \[?|\()(\w+)\]?\)? (?:=|=>)/g)].map((m) => m[1]!),
      );
      // What it calls or reads a member of, not as a member itself: `f(`, `new F(`, `x.y`.
      for (const [, name] of body.matchAll(/(?<![.\w'])([A-Za-z_]\w*)(?=\(|\.)/g))
        if (!GLOBAL_CALLS.has(name!) && !local.has(name!))
          expect(shown, `${id}: ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('shows examples/node-tests/setup.ts as the msw 2 setup; the msw 3 form changes its listen line', async () => {
    const setup = await readFile(join(ROOT, 'examples/node-tests/setup.ts'), 'utf8');
    expect(block('node-setup-msw2').body).toBe(setup);
    const [line] = block('node-setup-msw3').body.trimEnd().split('\n');
    expect(line).toMatch(
      /^beforeAll\(\(\) => server\.listen\(\{ onUnhandledFrame: 'error' \}\)\);$/,
    );
    expect(setup).toContain("beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));\n");
  });

  it('says how every inline command is tested, or why it is not run', () => {
    const found = [...new Set(inlineCommands().map((c) => c.command))].sort();
    expect(found).toEqual(Object.keys(INLINE).sort());
    for (const [command, how] of Object.entries(INLINE))
      expect(how, command).toMatch(/^(run|not run)/);
  });

  it('has every shell block run as typed by exactly one test', () => {
    const owners = Object.values(SHELL_BLOCKS_RUN_BY).flat();
    expect(owners.filter((id, i) => owners.indexOf(id) !== i)).toEqual([]);
    const shell = BLOCKS.filter((b) => b.lang === 'sh').map((b) => b.id);
    expect([...owners].sort()).toEqual(shell.sort());
  });

  it('names a reason for every line a block leaves out, and each is a line of the block', () => {
    for (const b of BLOCKS) {
      const commands = shellCommands(b.body).map((c) => c.replace(/\s+#.*$/, ''));
      for (const [command, reason] of b.notRun) {
        if (b.lang === 'sh') expect(commands, `${b.id}: ${command}`).toContain(command);
        expect(reason.length, `${b.id}: ${command}`).toBeGreaterThan(10);
      }
    }
  });
});
