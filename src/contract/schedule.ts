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
  for (const check of checks) {
    if (check.exclusive) {
      await Promise.all(inFlight);
      await runOne(check);
      continue;
    }
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const running: Promise<void> = runOne(check).finally(() => inFlight.delete(running));
    inFlight.add(running);
  }
  await Promise.all(inFlight);
}
