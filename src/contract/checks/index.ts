import type { ContractCheck } from '../check.ts';
import { authChecks } from './auth.ts';
import { deletionChecks } from './deletion.ts';
import { listingChecks } from './listing.ts';
import { negativeChecks } from './negative.ts';
import { resourceChecks } from './resources.ts';
import { responseChecks } from './responses.ts';
import { searchChecks } from './search.ts';

/** The contract suite: every check, in the order they run (deletions last). */
export const CHECKS: ContractCheck[] = [
  ...authChecks,
  ...listingChecks,
  ...resourceChecks,
  ...searchChecks,
  ...responseChecks,
  ...negativeChecks,
  ...deletionChecks,
];
