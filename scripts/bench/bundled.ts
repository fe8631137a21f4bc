/**
 * A bench script bundled as the published bin is (`scripts/bundle-bin.ts`: Vite, dependencies
 * tree-shaken in), so the bench measures the code users run, not tsx's on-the-fly transform of
 * the sources: tsx keeps function names by wrapping every closure in a `__name(...)` call, which
 * alone put about 40 µs of CPU on each request to the mock's server (105 against 66 µs in one
 * run of the throughput bench's "get one collection").
 */
import { basename, dirname, join } from 'node:path';
import { bundleBin } from '../bundle-bin.ts';

/**
 * Bundles `entry` (a script under `<checkout>/scripts/bench/`) into `<checkout>/node_modules/.cache`,
 * two folders below the checkout as the bin is, so that its modules find `openapi.yaml` and the
 * fixtures; returns the path of the bundle to run with `node`.
 */
export async function bundled(entry: string): Promise<string> {
  const checkout = dirname(dirname(dirname(entry)));
  const name = `bench-${basename(entry, '.ts')}`;
  const outDir = join(checkout, 'node_modules/.cache');
  // @note Vite's build sets NODE_ENV=production in this process when it is unset, and every
  // server the bench spawns afterwards would inherit it (json-server then scans a ./public that
  // does not exist, and exits).
  const nodeEnv = process.env.NODE_ENV;
  try {
    await bundleBin(outDir, name, { entry });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return join(outDir, `${name}.js`);
}
