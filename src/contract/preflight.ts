import type { ContractKeys } from './check.ts';
import type { RunData } from './runner/run-data.ts';
import type { Target } from './target-api/target.ts';
import { answersAtItsPaths, TargetError } from './runner/run.ts';

/**
 * Checks, before any check runs, that the target answers and accepts the full key in at least one
 * of the two stated header forms (a form refused alone is for the header checks to report), and
 * that in a destructive run the key can create data.
 */
export async function preflight(
  target: Target,
  run: RunData,
  options: { keys: ContractKeys; destructive: boolean },
): Promise<void> {
  await answersAtItsPaths(target, options.keys.full);
  if (options.destructive && target.offers('createCollection')) {
    const made = await run.main().catch((error: Error) => error);
    if (made instanceof Error && / 40[13] /.test(made.message))
      throw new TargetError(
        `--destructive needs a key that can create data, and --api-key cannot: ${made.message.replace(/^could not create test data with /, '')}`,
      );
  }
}
