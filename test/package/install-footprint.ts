/**
 * What installing a package adds to a project: the packages npm placed (from its hidden lockfile,
 * `node_modules/.package-lock.json`), their size on disk and in bytes, and which of them run an
 * install script.
 */
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectOk, run } from './commands.ts';

/** One installed package, as npm's hidden lockfile records it. */
interface InstalledPackage {
  /** Its folder under the project, e.g. `node_modules/ajv`. */
  path: string;
  version: string;
  /** npm's mark for a preinstall, install or postinstall script, or a binding.gyp. */
  hasInstallScript: boolean;
}

/** Every package installed in `project`, by its folder. */
async function installedPackages(project: string): Promise<Map<string, InstalledPackage>> {
  const lock = JSON.parse(
    await readFile(join(project, 'node_modules', '.package-lock.json'), 'utf8'),
  ) as {
    packages: Record<string, { version?: string; hasInstallScript?: boolean; link?: boolean }>;
  };
  const found = new Map<string, InstalledPackage>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || entry.link) continue;
    found.set(path, {
      path,
      version: entry.version ?? '',
      hasInstallScript: entry.hasInstallScript === true,
    });
  }
  return found;
}

/** The size of a folder: on disk (allocated blocks, as `du` counts) and the bytes of its files. */
interface Footprint {
  diskBytes: number;
  fileBytes: number;
  files: number;
}

/** Walks `dir` without following links. */
async function footprint(dir: string): Promise<Footprint> {
  const total: Footprint = { diskBytes: 0, fileBytes: 0, files: 0 };
  const walk = async (path: string): Promise<void> => {
    const stats = await lstat(path);
    total.diskBytes += stats.blocks * 512;
    if (stats.isFile()) {
      total.fileBytes += stats.size;
      total.files += 1;
    }
    if (stats.isDirectory()) {
      for (const name of await readdir(path)) await walk(join(path, name));
    }
  };
  await walk(dir);
  return total;
}

/** The lifecycle scripts npm runs on install, of one installed package's package.json. */
export async function installScripts(
  project: string,
  path: string,
): Promise<Record<string, string>> {
  const manifest = JSON.parse(await readFile(join(project, path, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return Object.fromEntries(
    Object.entries(manifest.scripts ?? {}).filter(([name]) =>
      ['preinstall', 'install', 'postinstall'].includes(name),
    ),
  );
}

/** What `npm install <tarball> --foreground-scripts` added to a project that had only msw. */
export interface KitInstall {
  /** The packages the kit brought (the kit included), by folder. */
  added: InstalledPackage[];
  /** The growth of `node_modules`. */
  growth: Footprint;
  /** npm's output: with --foreground-scripts, every script it ran is shown there. */
  output: string;
  project: string;
}

/**
 * A clean project in `work`/lean that installs `msw@<major>` (the app's own), then the kit's
 * tarball with install scripts enabled and shown (`--foreground-scripts`).
 */
export async function installKitBesideMsw(
  work: string,
  tarball: string,
  msw: string,
): Promise<KitInstall> {
  const project = join(work, 'lean');
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'lean', private: true, type: 'module' })}\n`,
  );
  const flags = ['--prefer-offline', '--no-audit', '--no-fund'];
  // @note The app's msw with its own scripts off: its postinstall (copying the worker script) is
  // the app's business, not something the kit brings.
  expectOk(
    'npm install msw',
    await run('npm', ['install', `msw@${msw}`, ...flags, '--ignore-scripts'], project),
  );
  const [packagesBefore, sizeBefore] = await Promise.all([
    installedPackages(project),
    footprint(join(project, 'node_modules')),
  ]);
  const installed = await run(
    'npm',
    ['install', tarball, ...flags, '--foreground-scripts'],
    project,
  );
  expectOk('npm install <tarball> --foreground-scripts', installed);
  const [packagesAfter, sizeAfter] = await Promise.all([
    installedPackages(project),
    footprint(join(project, 'node_modules')),
  ]);
  const added = [...packagesAfter.values()].filter(
    (entry) => packagesBefore.get(entry.path)?.version !== entry.version,
  );
  return {
    added,
    growth: {
      diskBytes: sizeAfter.diskBytes - sizeBefore.diskBytes,
      fileBytes: sizeAfter.fileBytes - sizeBefore.fileBytes,
      files: sizeAfter.files - sizeBefore.files,
    },
    output: installed.stdout + installed.stderr,
    project,
  };
}
