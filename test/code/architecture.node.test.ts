import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of `src/`, and what each may import. A module imports its own folder or a folder
 * named here, never one above it: the core is given its data, the contract as data knows nothing
 * of the mock, and the contract suite knows the mock only through HTTP. `bin/` assembles
 * everything. Type-only imports count too: a type from a higher layer is a dependency all the same.
 */
const MAY_IMPORT: Record<string, string[]> = {
  generated: [],
  openapi: ['generated'],
  core: ['openapi', 'generated'],
  seed: ['core', 'openapi', 'generated'],
  msw: ['core', 'openapi', 'generated'],
  faults: ['core', 'openapi', 'generated'],
  root: ['msw', 'seed', 'core', 'openapi', 'generated'],
  node: ['root', 'msw', 'seed', 'core', 'openapi', 'generated'],
  browser: ['root', 'msw', 'seed', 'core', 'openapi', 'generated'],
  express: ['node', 'core', 'openapi', 'generated'],
  contract: ['openapi', 'generated'],
  bin: ['contract', 'node', 'faults', 'root', 'seed', 'core', 'openapi', 'generated'],
};

/**
 * Files outside `src/` that modules may read as data: the default seed (built into the bundle)
 * and the target description's JSON Schema (in `contracts/`, beside the kit's own description).
 */
const DATA_OUTSIDE_SRC = ['fixtures/default-state.json', 'contracts/target.schema.json'];

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The layer of a file under src/: its first folder, or `root` for src/*.ts. */
function layerOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? 'root' : parts[0]!;
}

/** Every relative import of a file (static, type-only, re-exports and dynamic `import()`). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name));
}

const FILES = sourceFiles(SRC);
const GRAPH = new Map(FILES.map((file) => [file, importsOf(file)]));

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexes = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indexes.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indexes.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node)!, indexes.get(next)!));
      }
    }
    if (lowlinks.get(node) === indexes.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!indexes.has(node)) visit(node);
  return found;
}

/** Folder names that tools (drawings, coverage, search, packers) skip as build output. */
const BUILD_OUTPUT_NAMES = ['target', 'build', 'dist', 'out'];

/** Every folder under `folder`, as a path from the repository root. */
function foldersUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      return [path, ...foldersUnder(path)];
    });
}

describe('the folders of the sources', () => {
  it('carry no name that tools take for build output', () => {
    const named = ['src', 'test', 'scripts', 'examples']
      .flatMap(foldersUnder)
      .filter((path) => BUILD_OUTPUT_NAMES.includes(path.split('/').at(-1)!));
    expect(named).toEqual([]);
  });
});

describe('the layers of src/', () => {
  it('knows every folder of src/', () => {
    const unknown = [...new Set(FILES.map(layerOf))].filter((layer) => !(layer in MAY_IMPORT));
    expect(unknown).toEqual([]);
  });

  it('has no import that points up a layer or out of src/', () => {
    const wrong: string[] = [];
    for (const [file, imports] of GRAPH) {
      const from = layerOf(file);
      for (const target of imports) {
        const shown = `${relative(ROOT, file)} -> ${relative(ROOT, target)}`;
        if (!target.startsWith(`${SRC}/`)) {
          if (!DATA_OUTSIDE_SRC.includes(relative(ROOT, target))) wrong.push(shown);
          continue;
        }
        const to = layerOf(target);
        if (to !== from && !MAY_IMPORT[from]!.includes(to))
          wrong.push(`${shown} (${from} -> ${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    const found = cycles(GRAPH).map((component) => component.map((f) => relative(ROOT, f)).sort());
    expect(found).toEqual([]);
  });

  it('finds a cycle and an upward import when there is one (the checks can fail)', () => {
    const a = join(SRC, 'core/a.ts');
    const b = join(SRC, 'core/b.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toHaveLength(1);
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
    ).toEqual([]);
    expect(MAY_IMPORT.core).not.toContain('seed');
    expect(MAY_IMPORT.contract).not.toContain('core');
  });

  it('uses @msw/data through its public API only: no private symbol, no record array', () => {
    const uses = sourceFiles(SRC).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'@msw\/data'/g)];
      return imports.map((match) => `${relative(ROOT, file)}: ${match[2]!.trim()}`);
    });
    expect(uses.sort()).toEqual(['src/core/mock-db.ts: Query', 'src/core/record-table.ts: Query']);
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      expect(text, relative(ROOT, file)).not.toMatch(
        /kPrimaryKey|kRelationMap|getOwnPropertySymbols/,
      );
    }
  });

  it('keeps the data apart from HTTP: store, search, snapshot and primitives build no answer', () => {
    const data = ['store', 'search', 'snapshot', 'primitives'].map((folder) =>
      join(SRC, 'core', folder),
    );
    const allowed = ['limits.ts', 'json-limits.ts', 'api-key.ts'].map((file) =>
      join(SRC, 'core', file),
    );
    const reaching = [...GRAPH]
      .filter(([file]) => data.some((folder) => file.startsWith(`${folder}/`)))
      .flatMap(([file, imports]) =>
        imports
          .filter(
            (to) => to.startsWith(join(SRC, 'core')) && !data.some((f) => to.startsWith(`${f}/`)),
          )
          .filter((to) => !allowed.includes(to))
          .map((to) => `${relative(ROOT, file)} -> ${relative(ROOT, to)}`),
      );
    expect(reaching).toEqual([]);
  });
});

describe('the output of the contract commands', () => {
  // @note One sink (src/contract/output.ts) redacts every key and secret the run was given:
  // a module that wrote to stdout, stderr or a file itself could print one a target echoed.
  // The files written for another reader than the user, holding nothing a target sent:
  // heartbeat.ts writes a run's pid and host for `sweep` on the same machine.
  const NOT_OUTPUT = ['output.ts', 'heartbeat.ts'].map((name) => join('contract', name));
  it('is written by src/contract/output.ts alone: no other module writes a stream or a file', () => {
    const writers = FILES.filter(
      (file) =>
        layerOf(file) === 'contract' &&
        !NOT_OUTPUT.some((name) => file.endsWith(name)) &&
        /process\.(stdout|stderr)\.write|console\.\w+\(|\b(writeFile|appendFile|createWriteStream|writeFileSync|appendFileSync)\b/.test(
          readFileSync(file, 'utf8'),
        ),
    ).map((file) => relative(ROOT, file));
    expect(writers).toEqual([]);
  });
});

describe('tsconfig.core.json', () => {
  /** The diagnostics of the core's program with one more file, `code`, in src/core. */
  function compileWith(code: string): string[] {
    const configFile = join(ROOT, 'tsconfig.core.json');
    const config = ts.getParsedCommandLineOfConfigFile(
      configFile,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    const probe = join(SRC, 'core', 'probe-of-the-test.ts');
    const host = ts.createCompilerHost(config.options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (file, language, ...rest) =>
      file === probe
        ? ts.createSourceFile(file, code, language)
        : getSourceFile(file, language, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (file) => file === probe || fileExists(file);
    const globals = join(ROOT, 'types', 'core-globals.d.ts');
    const program = ts.createProgram([probe, globals], config.options, host);
    return ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === probe)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  it('compiles what both runtimes have, and refuses a Node or a DOM call in the core', () => {
    expect(
      compileWith('export const t = performance.now() + new URL("http://x").href.length;'),
    ).toEqual([]);
    expect(compileWith('export const t = process.pid;')).toEqual([
      expect.stringMatching(/process/),
    ]);
    expect(compileWith('export const t = document.title;')).toEqual([
      expect.stringMatching(/document/),
    ]);
    expect(compileWith('export const t = Buffer.from("x");')).toEqual([
      expect.stringMatching(/Buffer/),
    ]);
  });
});
