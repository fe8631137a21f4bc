/**
 * Bundles the `answers-mock` command into a few ES modules with Vite (Rollup), so that it starts
 * without resolving and evaluating hundreds of files: its `dependencies` are tree-shaken into it
 * (`@msw/data` alone loaded es-toolkit's whole barrel, 0.4 s), its peers (faker for
 * `--seed`/`--size`, msw, express, Prism) stay imports, and modules it imports on demand stay
 * chunks of their own.
 *
 * Two places, both two folders below the package root, as `src/node/` is: the modules find
 * `../../openapi.yaml` and `../../fixtures/default-state.json` from there.
 * - `npm run build` writes `dist/src/bin/answers-mock.js` (and its chunks) over tsc's output;
 * - `npm start` (`scripts/start.js`) runs `node_modules/.cache/answers-mock-start.js`, and
 *   rebuilds it here (`--start`) when a file it was built from has changed.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Rollup } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'src/bin/answers-mock.ts');

/** Where `npm start` keeps its bundle, and the name its files start with. */
const START_DIR = join(ROOT, 'node_modules/.cache');
const START_NAME = 'answers-mock-start';

/** The files the bundle was built from, besides its modules: a change to any rebuilds it. */
const BUILD_INPUTS = ['package.json', 'node_modules/.package-lock.json', 'scripts/bundle-bin.ts'];

const sha1 = (bytes: Uint8Array | string) => createHash('sha1').update(bytes).digest('hex');

/** Writes a file whole or not at all, so that a process starting meanwhile never reads half. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

/** The package folder of a module inside node_modules, e.g. `/x/node_modules/@msw/data`. */
function packageOf(id: string): string {
  const at = id.lastIndexOf('/node_modules/') + '/node_modules/'.length;
  const parts = id.slice(at).split('/');
  return id.slice(0, at) + parts.slice(0, parts[0]!.startsWith('@') ? 2 : 1).join('/');
}

/**
 * The licence of each package bundled in, as their terms ask: its name, version and licence
 * text, for `<name>.licenses.txt` beside the bundle.
 */
async function notices(name: string, packages: string[]): Promise<string> {
  const parts: string[] = [];
  for (const folder of packages) {
    const { name, version, license } = JSON.parse(
      await readFile(join(folder, 'package.json'), 'utf8'),
    ) as { name: string; version: string; license?: string };
    const file = (await readdir(folder)).find((entry) => /^licen[cs]e/i.test(entry));
    const text = file ? await readFile(join(folder, file), 'utf8') : `License: ${license}`;
    parts.push(`${name}@${version} (${license ?? 'see below'})\n\n${text.trim()}\n`);
  }
  return `${name}.js bundles these packages:\n\n${parts.join('\n---\n\n')}`;
}

/**
 * Bundles the command into `outDir` as `<name>.js` and `<name>-<chunk>-<hash>.js`, deleting the
 * chunks of a previous bundle of that name, and with `licenses` the licences of the packages
 * bundled in as `<name>.licenses.txt`. Returns the repository files it was built from (relative
 * paths), with `BUILD_INPUTS`.
 */
export async function bundleBin(
  outDir: string,
  name: string,
  { licenses = false, entry = ENTRY }: { licenses?: boolean; entry?: string } = {},
): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  const external = [...Object.keys(manifest.peerDependencies ?? {})];
  const builtins = new Set(builtinModules);
  const result = await build({
    root: ROOT,
    configFile: false,
    logLevel: 'warn',
    build: {
      ssr: entry,
      write: false,
      target: 'node20',
      minify: false,
      rollupOptions: {
        external: (id) =>
          id.startsWith('node:') ||
          builtins.has(id) ||
          external.some((peer) => id === peer || id.startsWith(`${peer}/`)),
        output: {
          format: 'es',
          entryFileNames: `${name}.js`,
          chunkFileNames: `${name}-[name]-[hash].js`,
        },
      },
    },
    ssr: { noExternal: true, target: 'node' },
  });
  const chunks = (Array.isArray(result) ? result : [result])
    .flatMap((output) => (output as Rollup.RollupOutput).output)
    .filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  await mkdir(outDir, { recursive: true });
  const written = new Set(chunks.map((chunk) => chunk.fileName));
  for (const file of await readdir(outDir)) {
    if (file.startsWith(`${name}-`) && file.endsWith('.js') && !written.has(file))
      await rm(join(outDir, file), { force: true });
  }
  // The entry last: a process that starts while this writes finds the chunks it imports.
  for (const chunk of [...chunks].sort((a, b) => Number(a.isEntry) - Number(b.isEntry)))
    await writeAtomically(join(outDir, chunk.fileName), chunk.code);
  const modules = chunks.flatMap((chunk) => Object.keys(chunk.modules));
  if (licenses) {
    const packages = [
      ...new Set(modules.filter((id) => id.includes('/node_modules/')).map(packageOf)),
    ];
    await writeAtomically(
      join(outDir, `${name}.licenses.txt`),
      await notices(name, packages.sort()),
    );
  }
  const sources = modules
    .filter((id) => id.startsWith(ROOT) && !id.includes('/node_modules/'))
    .map((id) => relative(ROOT, id));
  return [...new Set([...sources, ...BUILD_INPUTS])].sort();
}

/**
 * The bundle of `npm start`, and beside it `<name>.json`: the hash of each file it was built
 * from, which `scripts/start.js` compares before running it.
 */
async function bundleForStart(): Promise<void> {
  const inputs = await bundleBin(START_DIR, START_NAME);
  const hashes: Record<string, string> = {};
  for (const file of inputs) {
    hashes[file] = await readFile(join(ROOT, file)).then(sha1, () => 'missing');
  }
  await writeAtomically(
    join(START_DIR, `${START_NAME}.json`),
    `${JSON.stringify({ inputs: hashes }, null, 2)}\n`,
  );
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (invokedDirectly && process.argv.includes('--start')) {
  bundleForStart().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
