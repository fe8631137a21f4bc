/**
 * Shared helpers of the fuzz suite: running a property with a report that tells the developer how
 * to keep a shrunk counterexample as a regression test, JSON equality, and a request sender.
 */
import fc from 'fast-check';
import type { AnswersMock } from '../../src/index.ts';

/** The fixed seed of every property (override with FUZZ_SEED to explore, or to replay a report). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Runs of the random-request property; `npm run fuzz` sets 2000. */
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 150));

/** Deep equality of JSON values (object key order ignored; own keys only, `__proto__` included). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) &&
      jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** A response as the checks read it. */
export interface Observed {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export function observe(status: number, headers: Headers, text: string): Observed {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

const encoder = new TextEncoder();

/** Sends one JSON request through `mock.handle` (no transport) with an API key. */
export async function send(
  mock: AnswersMock,
  key: string,
  method: string,
  pathAndQuery: string,
  body?: unknown,
): Promise<Observed> {
  const [path, query = ''] = pathAndQuery.split('?', 2) as [string, string?];
  const headers = new Headers({ authorization: `Bearer ${key}` });
  if (body !== undefined) headers.set('content-type', 'application/json');
  const { response } = await mock.handle({
    method,
    path: `/api/answers/v1${path}`,
    query: new URLSearchParams(query),
    headers,
    body: body === undefined ? undefined : encoder.encode(JSON.stringify(body)),
  });
  return observe(response.status, new Headers(response.headers), response.body ?? '');
}

/** FNV-1a of a text, for short stable file names. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0').slice(0, 6);
}

/** Comment lines of at most 100 columns. */
function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = '//';
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 100 && line !== '//') {
      lines.push(line);
      line = '//';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** How a counterexample of a property is replayed from a regression test. */
export interface Replay {
  /** File name stem, e.g. `sequence` or `request`. */
  kind: string;
  /** The module (relative to `test/regressions/`) and the function that replays it. */
  module: string;
  replayer: string;
}

/**
 * The message printed when a property fails: fast-check's own report (counterexample, seed,
 * path, shrinks), then the exact regression test file to add under `test/regressions/`.
 */
function regressionReport(
  name: string,
  replay: Replay,
  counterexample: unknown,
  details: { seed: number; counterexamplePath: string | null; numRuns: number; numShrinks: number },
  error: unknown,
): string {
  const json = JSON.stringify(counterexample);
  // @note Named for now by the counterexample; rename it for the bug once it is understood.
  const file = `test/regressions/${replay.kind}-${shortHash(json)}.node.test.ts`;
  const cause = (error instanceof Error ? error.message : String(error))
    .replace(/\s+/g, ' ')
    .slice(0, 400);
  return [
    `fuzz: property "${name}" failed after ${details.numRuns} runs and ${details.numShrinks} shrinks`,
    `(seed ${details.seed}, path ${details.counterexamplePath}; replay exactly with`,
    `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath}).`,
    `Cause: ${cause}`,
    `Shrunk counterexample: ${json}`,
    '',
    `Keep it as a regression test: create ${file} (then rename it for the bug it shows) with`,
    '',
    `import { it } from 'vitest';`,
    `import { ${replay.replayer} } from '${replay.module}';`,
    '',
    ...wrap(
      `Found by test/hardening/fuzz/fuzz.node.test.ts ("${name}", seed ${details.seed}): ${cause}`,
    ),
    `it('${name}: ${replay.kind}-${shortHash(json)}', async () => {`,
    `  await ${replay.replayer}(${json});`,
    '});',
    '',
    `then \`npx prettier --write ${file}\`, watch it fail, fix the bug, watch it pass.`,
  ].join('\n');
}

/**
 * Runs an async property with the suite's seed and turns a failure into {@link regressionReport}.
 * Returns the number of runs tried.
 */
export async function checkProperty<T>(
  name: string,
  replay: Replay,
  property: fc.IAsyncPropertyWithHooks<[T]>,
  numRuns: number,
): Promise<number> {
  const path = process.env.FUZZ_PATH;
  const details = await fc.check(property, {
    numRuns,
    seed: FUZZ_SEED,
    ...(path ? { path } : {}),
  });
  if (details.failed) {
    const counterexample = details.counterexample?.[0];
    throw new Error(
      regressionReport(name, replay, counterexample, details, details.errorInstance),
      { cause: details.errorInstance },
    );
  }
  return details.numRuns;
}
