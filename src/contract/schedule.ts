import type { ContractCheck } from './check.ts';

/**
 * Runs the checks, at most `concurrency` at once, in their order; an exclusive check (one that
 * walks whole lists) waits until nothing else is in flight and runs alone.
 */
export async function schedule(
  checks: ContractCheck[],
  concurrency: number,
  runOne: (check: ContractCheck) => Promise<void>,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  // @note A task that throws (a progress callback, say) must not end the schedule while others
  // are still in flight: the first error is thrown once every task has ended.
  let failure: { error: unknown } | undefined;
  const settled = (task: Promise<void>) =>
    task.catch((error: unknown) => {
      failure ??= { error };
    });
  for (const check of checks) {
    if (check.exclusive) {
      await Promise.all(inFlight);
      await settled(runOne(check));
      continue;
    }
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const running: Promise<void> = settled(runOne(check)).finally(() => inFlight.delete(running));
    inFlight.add(running);
  }
  await Promise.all(inFlight);
  if (failure) throw failure.error;
}
