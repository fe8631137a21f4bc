import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Rollup } from 'vite';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultState } from '../../src/seed/default-state.ts';

const BROWSER_ENTRY = fileURLToPath(new URL('../../src/browser/index.ts', import.meta.url));
/** Text that occurs in the default seed and nowhere in the kit's code or openapi.yaml. */
const FIXTURE_MARKERS = [
  defaultState.collections.find((c) => c.name === 'Product FAQ')!.id,
  String((defaultState.objects[1]!.content as { title: string }).title),
];

const dir = mkdtempSync(join(tmpdir(), 'answers-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Bundles `code` for the browser with Vite (Rollup), as an app using the kit would be; minified
 * like a production build when asked, without msw when `withoutMsw` (the app's own dependency).
 */
async function bundle(
  name: string,
  code: string,
  { minify = false, withoutMsw = false } = {},
): Promise<Rollup.OutputChunk[]> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, code.replaceAll('ENTRY', BROWSER_ENTRY));
  const result = await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify,
      rollupOptions: { input: entry, external: withoutMsw ? [/^msw(\/|$)/] : [] },
    },
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

  it('weighs at most 80 KB minified and gzipped, without msw, the default seed included', async () => {
    const chunks = await bundle(
      'size',
      `import { setupAnswersWorker } from 'ENTRY';
       const { worker } = await setupAnswersWorker();
       await worker.start();`,
      { minify: true, withoutMsw: true },
    );
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    const sizes = chunks.map((chunk) => ({
      chunk: chunk.isEntry ? 'app and kit' : chunk.name,
      minified: chunk.code.length,
      gzipped: gzipSync(chunk.code).length,
    }));
    // @note Printed for docs/performance.md; the byte counts are the same on every run.
    for (const { chunk, minified, gzipped } of sizes)
      console.log(
        `./browser bundle, ${chunk}: ${kb(minified)} KB minified, ${kb(gzipped)} KB gzipped`,
      );
    const gzipped = sizes.reduce((sum, size) => sum + size.gzipped, 0);
    expect(gzipped, `${kb(gzipped)} KB gzipped`).toBeLessThanOrEqual(80 * 1024);
  }, 120_000);

  it('carries no JSON Schema compiler and not the whole openapi.yaml (validators come precompiled)', async () => {
    const chunks = await bundle(
      'no-compiler',
      `import { emptyState, setupAnswersWorker } from 'ENTRY';
       const { worker } = await setupAnswersWorker({ initialState: emptyState() });
       await worker.start();`,
      { withoutMsw: true },
    );
    const modules = chunks.flatMap((chunk) => Object.keys(chunk.modules));
    expect(modules.filter((id) => /ajv\/dist\/(core|compile)|openapi-document/.test(id))).toEqual(
      [],
    );
    // The check can fail: the validators it does carry come from the generated module.
    expect(modules.some((id) => id.endsWith('src/generated/request-validators.ts'))).toBe(true);
  }, 120_000);
});
