/**
 * Found by exploring the spec-only server (issue 48): a found sequence whose replay took longer
 * than the shrink budget (reads waiting out a consistency window) ended fast-check's shrinking
 * before it replayed the sequence once. fast-check reports such a check as failed with no error,
 * and explore threw "explore stopped: null" instead of telling the story it had found. Now the
 * story is the one first seen.
 */
import { expect, it } from 'vitest';
import { startIndependentServer } from '../independent/server.ts';
import { exploreIndependent } from './proofs/explore-independent.ts';

it('tells the story first seen when the shrink budget ends before one replay', async () => {
  const server = await startIndependentServer({ variant: 'walk-offset-token' });
  try {
    // @note 1 ms: the shrinking is always interrupted before its first run.
    const report = await exploreIndependent(
      { seed: 1, maxRequests: 3_000, shrinkBudgetMs: 1 },
      server,
    );
    expect(report.story?.clause).toBe('COLL-LIST-2');
    expect(report.story?.asFirstSeen).toBe(true);
  } finally {
    await server.close();
  }
}, 60_000);
