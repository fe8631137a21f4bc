/**
 * `npm run build` (and `prepack`): compiles src/ to dist/ with tsconfig.build.json, bundles the
 * `answers-mock` command over its compiled module (so it starts in a fraction of a second, see
 * scripts/bundle-bin.ts), then puts beside them the files the compiled code reads at run time.
 */
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleBin } from './bundle-bin.ts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

await rm(root('dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', root('tsconfig.build.json')], { stdio: 'inherit' });
await bundleBin(root('dist/src/bin'), 'answers-mock', { licenses: true });
// @note fast-check is a devDependency: what `answers-contract explore` uses of it is bundled over
// the compiled re-export, so the installed kit needs no fast-check (docs/decisions/fast-check-bundled.md).
await bundleBin(root('dist/src/contract/explore'), 'fast-check', {
  licenses: true,
  entry: root('src/contract/explore/fast-check.ts'),
});

// src/node/docs-site.ts and src/contract/prism-proxy.ts read `../../openapi.yaml`: from
// dist/src/<dir>/ that is dist/openapi.yaml.
await copyFile(root('openapi.yaml'), root('dist/openapi.yaml'));

// src/node/inspector-site.ts reads the inspector page's files from `../../src/node/inspector/`:
// from dist/src/node/ (and the bundle in dist/src/bin/) that is dist/src/node/inspector/.
await mkdir(root('dist/src/node/inspector'), { recursive: true });
for (const name of ['inspector.html', 'inspector.css', 'inspector.js'])
  await copyFile(root(`src/node/inspector/${name}`), root(`dist/src/node/inspector/${name}`));

// src/seed/default-state.ts imports ../../fixtures/default-state.json and src/node/start-data.ts reads
// it: tsc emits it to dist/fixtures/ because the import makes it part of the program.
await stat(root('dist/fixtures/default-state.json'));

// The bin launchers: npm makes them executable on install too, but the tarball should say so.
for (const name of ['answers-mock', 'answers-contract']) {
  const file = root(`dist/src/bin/${name}.js`);
  if (!(await readFile(file, 'utf8')).startsWith('#!/usr/bin/env node\n')) {
    throw new Error(`${file} lost its #!/usr/bin/env node line`);
  }
  await chmod(file, 0o755);
}
// @note On stderr, so `npm pack --json` (which runs this as prepack) prints only JSON on stdout.
console.error('built dist/');
