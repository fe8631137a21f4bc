/**
 * What a folder's README must hold to: it names every file and subfolder directly in its folder,
 * and every file or folder it names exists. Pure: given the README's text and the repository's
 * files, it says what is unnamed and what is missing, so a table can prove it reports both.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a path a document names starts from the repository root rather than from its folder. */
const ROOT_FOLDERS = ['src/', 'test/', 'docs/', 'scripts/', 'fixtures/', 'examples/'];

/**
 * A backticked token that names a file or folder: a relative path ending in one of these
 * extensions, in `/`, or in `/...` (a folder and what is in it). Code (`setupAnswersServer`),
 * options (`--state-file`), globs (`*.ts`) and URL paths (`/docs`) are not paths.
 */
const PATH_TOKEN =
  /^(?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)*(?:\.(?:ts|md|json|yaml|js|css|html)|\/|\/\.\.\.)$/;

/** The backticked tokens of a Markdown text that name a file or folder, fenced blocks left out. */
export function backtickedPaths(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)]
    .map((match) => match[1]!)
    .filter((token) => PATH_TOKEN.test(token));
}

/**
 * A path as the repository holds it: from the root when it starts with one of the root's folders,
 * otherwise from the document's folder; a folder keeps its trailing `/`.
 */
function resolvePath(folder: string, token: string): string {
  const path = token.replace(/^\.\//, '').replace(/\/\.\.\.$/, '/');
  if (ROOT_FOLDERS.some((root) => path.startsWith(root))) return path;
  return folder ? `${folder}/${path}` : path;
}

/** Whether `path` (a file, or a folder ending in `/`) is in `files` (every file, from the root). */
function present(files: ReadonlySet<string>, path: string): boolean {
  if (!path.endsWith('/')) return files.has(path);
  for (const file of files) if (file.startsWith(path)) return true;
  return false;
}

export interface ReadmeProblems {
  /** Files (`name.ts`) and subfolders (`sub/`) directly in the folder that the README never names. */
  unnamed: string[];
  /** What the README names (as written) that is not there. */
  missing: string[];
}

/**
 * Holds the README at `readme` (a path from the root, e.g. `src/core/README.md`) with text `text`
 * to its folder, in a repository whose files (paths from the root) are `files`.
 * @note A bare name (`openapi.yaml`) that is not in the folder may be a file at the root.
 */
export function checkFolderReadme(
  readme: string,
  text: string,
  files: ReadonlySet<string>,
): ReadmeProblems {
  const folder = readme.slice(0, readme.lastIndexOf('/'));
  const named = new Set<string>();
  const missing: string[] = [];
  for (const token of backtickedPaths(text)) {
    const path = resolvePath(folder, token);
    const bare = !token.replace(/\/(\.\.\.)?$/, '').includes('/');
    if (present(files, path)) named.add(path);
    else if (!(bare && present(files, token))) missing.push(token);
  }
  const entries = new Set<string>();
  for (const file of files) {
    if (!file.startsWith(`${folder}/`) || file === readme) continue;
    const rest = file.slice(folder.length + 1);
    const slash = rest.indexOf('/');
    entries.add(slash < 0 ? rest : rest.slice(0, slash + 1));
  }
  const unnamed = [...entries]
    .filter((entry) => {
      const path = `${folder}/${entry}`;
      if (!entry.endsWith('/')) return !named.has(path);
      return ![...named].some((name) => name.startsWith(path));
    })
    .sort();
  return { unnamed, missing: [...new Set(missing)] };
}

/** Folders that hold no source: not walked. */
const SKIP = new Set(['node_modules', 'dist', 'coverage', '.tmp', 'test-results', '.git']);

/** Every file under `folder` of `root`, as a path from `root`. */
export function filesUnder(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

/** The files at the root and under the root folders a document may name. */
export function repositoryFiles(root: string): Set<string> {
  const top = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  return new Set([
    ...top,
    ...ROOT_FOLDERS.flatMap((folder) => filesUnder(root, folder.slice(0, -1))),
  ]);
}
