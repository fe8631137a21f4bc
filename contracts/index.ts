import type { ContractCheck } from '../src/contract/check.ts';
import { authChecks } from './auth.contract.ts';
import { deletionChecks } from './deletion.contract.ts';
import { listingChecks } from './listing.contract.ts';
import { negativeChecks } from './negative.contract.ts';
import { resourceChecks } from './resources.contract.ts';
import { responseChecks } from './responses.contract.ts';
import { searchChecks } from './search.contract.ts';

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
