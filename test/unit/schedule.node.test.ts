/** The contract suite's schedule: how many checks run at once, and which run alone. */
import { describe, expect, it } from 'vitest';
import type { ContractCheck } from '../../src/contract/check.ts';
import { schedule } from '../../src/contract/schedule.ts';

const check = (id: string, exclusive = false) => ({ id, exclusive }) as ContractCheck;

/** Runs `checks` and records, at each start, which checks were in flight. */
async function trace(checks: ContractCheck[], concurrency: number, failing?: string) {
  const inFlight = new Set<string>();
  const seen: Array<{ id: string; alongside: string[] }> = [];
  const ended: string[] = [];
  const run = schedule(checks, concurrency, async (c) => {
    seen.push({ id: c.id, alongside: [...inFlight] });
    inFlight.add(c.id);
    // @note Two turns of the event loop: others may start meanwhile, as real checks do.
    await Promise.resolve();
    await Promise.resolve();
    inFlight.delete(c.id);
    ended.push(c.id);
    if (c.id === failing) throw new Error(`${c.id} failed`);
  });
  const error = await run.then(
    () => undefined,
    (e: Error) => e.message,
  );
  return { seen, ended, error };
}

describe('schedule', () => {
  it.each([
    { concurrency: 1, most: 1 },
    { concurrency: 2, most: 2 },
    { concurrency: 4, most: 4 },
  ])('runs at most $concurrency at once', async ({ concurrency, most }) => {
    const { seen } = await trace(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => check(id)),
      concurrency,
    );
    expect(Math.max(...seen.map((s) => s.alongside.length + 1))).toBe(most);
    expect(seen.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('starts an exclusive check only when nothing else is in flight, and nothing beside it', async () => {
    const checks = [check('a'), check('b'), check('walk', true), check('c'), check('d')];
    const { seen } = await trace(checks, 4);
    expect(seen.find((s) => s.id === 'walk')!.alongside).toEqual([]);
    expect(seen.find((s) => s.id === 'c')!.alongside).toEqual([]);
  });

  it('lets every check end before it passes on the first error', async () => {
    const { ended, error } = await trace(
      ['a', 'b', 'c'].map((id) => check(id)),
      3,
      'a',
    );
    expect(error).toBe('a failed');
    expect(ended.sort()).toEqual(['a', 'b', 'c']);
  });
});
