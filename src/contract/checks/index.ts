import type { ContractCheck } from '../check.ts';
import { authChecks } from './auth.ts';
import { deletionChecks } from './deletion.ts';
import { listingChecks } from './listing.ts';
import { negativeChecks } from './negative.ts';
import { resourceChecks } from './resources.ts';
import { responseChecks } from './responses.ts';
import { searchChecks } from './search.ts';

/**
 * The contract suite, in the order the checks are started (deletions last). A spec check judges a
 * rule the spec states, through the target's description, and at `--level profile` is held to our
 * openapi.yaml too; a profile check judges one of our document's decisions and runs only there.
 */
export const CHECKS: ContractCheck[] = [
  ...authChecks,
  ...listingChecks,
  ...resourceChecks,
  ...searchChecks,
  ...responseChecks,
  ...negativeChecks,
  ...deletionChecks,
];

/** The checks of the spec's stated rules: they decide the exit status at the default level. */
export const SPEC_CHECKS: ContractCheck[] = CHECKS.filter((check) => check.level === 'spec');

/** The checks of our document's decisions: run only at `--level profile`. */
export const PROFILE_CHECKS: ContractCheck[] = CHECKS.filter((check) => check.level === 'profile');
