/**
 * What `answers-mock` starts from: a state file it continues, a fixture, no data, generated data
 * or the default seed; and the one kind of error its options can cause (exit 2).
 */
import { readFile } from 'node:fs/promises';
import { emptyState } from '../seed/empty-state.ts';
import { isStateLines, stateOfLines, StateLineError } from '../core/snapshot/state-lines.ts';
import type { StateFileContents } from './state-file/read.ts';

const DEFAULT_FIXTURE = new URL('../../fixtures/default-state.json', import.meta.url);

/** A problem with what the user asked for: one line on stderr and exit code 2. */
export class UsageError extends Error {}

/** The options that choose the data (see `answers-mock --help`). */
export interface StartData {
  fixture?: string;
  empty?: boolean;
  seed?: number;
  size?: number;
  stateFile?: string;
}

/**
 * A state in either of its two forms: an export (one JSON document) or what `--state-file`
 * writes (JSON Lines, a base line first): a developer hands their state file to a colleague as
 * it is.
 */
async function readJsonFile(file: string | URL, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${String(file)}: ${(error as Error).message}`);
  }
  if (isStateLines(text)) {
    try {
      return stateOfLines(text);
    } catch (error) {
      if (!(error instanceof StateLineError)) throw error;
      throw new UsageError(`${what} ${String(file)} is a state file, but its ${error.message}`);
    }
  }
  try {
    // @note A UTF-8 BOM (some editors write one) is not part of the JSON.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`${what} ${String(file)} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * The data to start from, and a word on where it came from for the banner. Beside
 * `--state-file`, `--fixture`, `--empty` and `--seed`/`--size` say what to start from while the
 * file does not exist yet; once it does, the mock continues from it and `notice` says they were
 * ignored (the line a user puts in package.json must work on day two too).
 */
export async function initialState(
  options: StartData,
  saved: StateFileContents | undefined,
): Promise<{ state: unknown; source: string; notice?: string }> {
  if (options.stateFile && saved && saved.kind !== 'missing') {
    const other = options.fixture
      ? '--fixture'
      : options.empty
        ? '--empty'
        : options.seed !== undefined || options.size !== undefined
          ? '--seed/--size'
          : undefined;
    return {
      state: saved.kind === 'json' ? saved.value : saved.snapshot,
      source: options.stateFile,
      notice: other
        ? `${options.stateFile} exists: continuing from it (${other} only says what to start from when it does not)`
        : undefined,
    };
  }
  if (options.fixture) {
    return { state: await readJsonFile(options.fixture, 'fixture'), source: options.fixture };
  }
  if (options.empty) {
    return { state: emptyState(), source: 'empty (dev accounts and keys only)' };
  }
  if (options.seed !== undefined || options.size !== undefined) {
    const { generateState } = await import('../seed/generate-state.ts').catch((error: unknown) => {
      // @note faker is an optional peer: only generated data needs it.
      if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
      throw new UsageError(
        '--seed and --size generate data with @faker-js/faker, an optional peer: npm install --save-dev @faker-js/faker@10',
      );
    });
    const state = generateState({ seed: options.seed, objects: options.size });
    return {
      state,
      source: `generated (seed ${options.seed ?? 'default'}, ${state.objects.length} objects)`,
    };
  }
  return {
    state: await readJsonFile(DEFAULT_FIXTURE, 'fixture'),
    // @note Not a path: installed, the file is inside node_modules, not the user's project.
    source: 'the default seed (the dev keys below and their data)',
  };
}
