import type { ContractKeys } from './check.ts';
import type { RunData } from './runner/run-data.ts';
import type { Target } from './target-api/target.ts';
import { TargetError } from './runner/run.ts';


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

/**
 * Throws a `TargetError` when the target cannot be used at all: unreachable, the full key refused
 * in both stated header forms, or nothing at the description's list path (404 or 405 in both:
 * a server that did not adopt the description, or a wrong --base-url). The suite and replay ask
 * it before they send anything else; explore's model is ours.
 */
export async function answersAtItsPaths(target: Target, fullKey: string): Promise<void> {
  if (!target.offers('listCollections')) return;
  const statuses: number[] = [];
  const forms: Array<Record<string, string>> = [
    { authorization: `Bearer ${fullKey}` },
    { 'x-answers-api-key': fullKey },
  ];
  for (const headers of forms) {
    try {
      // @note Not validated: whether the target is reachable is no check of its answers.
      const { method, path } = target.route('listCollections');
      statuses.push((await target.http.request(method, path, { key: null, headers })).status);
    } catch (error) {
      throw new TargetError(`cannot reach ${target.http.directUrl}: ${(error as Error).message}`);
    }
  }
  const { method, path } = target.route('listCollections');
  const refused = (status: number) => status === 401 || status === 403;
  // @note Only the Bearer form refused: the run goes on with the other stated form, and
  // auth.bearer-accepted reports the refusal (a failed check, not a set-up error).
  if (refused(statuses[0]!) && !refused(statuses[1]!)) target.http.keyHeader = 'x-answers-api-key';
  if (statuses.every(refused))
    throw new TargetError(
      `the target refuses --api-key in both header forms (${method} ${path} answered ${statuses.join(' and ')})`,
    );
  // @note A list path that is not there, or takes no GET, is a description the target did not
  // adopt: every check or exchange after it would fail for that one reason.
  if (statuses.every((status) => status === 404 || status === 405))
    throw new TargetError(
      `${method} ${target.http.directUrl}${path} answered ${[...new Set(statuses)].join(' and ')}: is --base-url right for ${target.description.source}?`,
    );
}
