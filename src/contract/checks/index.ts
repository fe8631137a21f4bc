import type { ContractCheck } from '../check.ts';
import { authChecks } from './auth.ts';
import { deletionChecks } from './deletion.ts';
import { listingChecks } from './listing.ts';
import { negativeChecks } from './negative.ts';
import { resourceChecks } from './resources.ts';
import { responseChecks } from './responses.ts';
import { searchChecks } from './search.ts';
import { specAuthChecks } from './spec/auth.ts';
import { specDeletionChecks } from './spec/deletion.ts';
import { specListingChecks } from './spec/listing.ts';
import { specResourceChecks } from './spec/resources.ts';
import { specSearchChecks } from './spec/search.ts';

/**
 * Spec checks (`spec/`): a rule the spec states, asked of the target through its description.
 * They decide the exit status at the default `--level spec`.
 */
export const SPEC_CHECKS: ContractCheck[] = [
  ...specAuthChecks,
  ...specListingChecks,
  ...specResourceChecks,
  ...specSearchChecks,
  ...specDeletionChecks,
];

/**
 * Profile checks: the decisions of our openapi.yaml (paths, fields, statuses, problem bodies,
 * schemas), for targets that adopted it; they decide the exit status only at `--level profile`.
 */
export const PROFILE_CHECKS: ContractCheck[] = [
  ...authChecks,
  ...listingChecks,
  ...resourceChecks,
  ...searchChecks,
  ...responseChecks,
  ...negativeChecks,
  ...deletionChecks,
];

/** The contract suite: every check, in the order they run (deletions last in each level). */
export const CHECKS: ContractCheck[] = [...SPEC_CHECKS, ...PROFILE_CHECKS];
