import type { Snapshot } from '../core/snapshot/snapshot.ts';
import { DEV_ACCOUNTS, DEV_KEYS } from './dev-keys.ts';

/** No collections or objects, but the dev accounts and keys, so requests can authenticate. */
export function emptyState(): Snapshot {
  return { accounts: DEV_ACCOUNTS, api_keys: DEV_KEYS, collections: [], objects: [] };
}
