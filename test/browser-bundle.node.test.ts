import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rollup } from 'vite';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultState } from '../src/seed/default-state.ts';

const BROWSER_ENTRY = fileURLToPath(new URL('../src/browser/index.ts', import.meta.url));
/** Text that occurs in the default seed and nowhere in the kit's code or openapi.yaml. */
const FIXTURE_MARKERS = [
  defaultState.collections.find((c) => c.name === 'Product FAQ')!.id,
  String((defaultState.objects[1]!.content as { title: string }).title),
];

const dir = mkdtempSync(join(tmpdir(), 'answers-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `code` for the browser with Vite (Rollup), as an app using the kit would be. */
async function bundle(name: string, code: string): Promise<Rollup.OutputChunk[]> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, code.replaceAll('ENTRY', BROWSER_ENTRY));
  const result = await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, rollupOptions: { input: entry } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs
    .flatMap((output) => output.output)
    .filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
}

const holdsFixture = (chunk: Rollup.OutputChunk) =>
  FIXTURE_MARKERS.some((marker) => chunk.code.includes(marker));

describe('a browser bundle of the ./browser entry', () => {
  it('carries no default fixture in the code a page loads when it passes its own data', async () => {
    const chunks = await bundle(
      'own-data',
      `import { emptyState, setupAnswersWorker } from 'ENTRY';
       const { worker } = await setupAnswersWorker({ initialState: emptyState() });
       await worker.start();`,
    );
    const entry = chunks.filter((chunk) => chunk.isEntry);
    expect(entry).toHaveLength(1);
    expect(entry.filter(holdsFixture)).toEqual([]);
    // The default seed is a chunk of its own, imported only when no initialState is given.
    expect(chunks.filter(holdsFixture).map((chunk) => chunk.isDynamicEntry)).toEqual([true]);
  }, 120_000);

  it('does hold the fixture in some chunk when the page uses the default (the check can fail)', async () => {
    const chunks = await bundle(
      'default-data',
      `import { setupAnswersWorker } from 'ENTRY';
       const { worker } = await setupAnswersWorker();
       await worker.start();`,
    );
    expect(chunks.filter(holdsFixture)).toHaveLength(1);
  }, 120_000);
});
