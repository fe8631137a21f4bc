/**
 * The declaration files a user's compiler can reach from the package's entry points: each
 * `exports` entry's `types`, then every relative module those files import or re-export. Files
 * the package holds but no entry point reaches are not its public surface (the `exports` map
 * refuses a deep import).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/** Relative specifiers in a declaration file: `from './x.js'` and `import('./x.js')`. */
const SPECIFIER = /(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;

export async function publicDeclarations(packageRoot: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const pending = Object.values(manifest.exports)
    .map((entry) => (typeof entry === 'string' ? undefined : entry.types))
    .filter((types): types is string => types !== undefined)
    .map((types) => join(packageRoot, types));
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(file, 'utf8');
    for (const [, specifier] of text.matchAll(SPECIFIER)) {
      pending.push(join(dirname(file), specifier!.replace(/\.(js|ts)$/, '.d.ts')));
    }
  }
  return [...seen].map((file) => relative(packageRoot, file)).sort();
}
