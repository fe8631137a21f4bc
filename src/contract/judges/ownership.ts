/**
 * COLL-1, where the run's own data is concerned: a collection the run is about to delete is
 * read back first, and one shown as someone else's (named otherwise, listed before the run) is
 * refused, not deleted (`RunData.mayNotDelete` gathers the evidence).
 */
import { diverged, type Verdict } from './verdict.ts';

export function refusedToDelete(why: string): Verdict {
  return diverged('COLL-1', why);
}
