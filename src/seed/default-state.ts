import type { StoreState } from '../core/store.ts';
import { DEV_ACCOUNTS, DEV_KEYS } from './dev-keys.ts';
import defaultFixture from '../../fixtures/default-state.json' with { type: 'json' };

/** The default seed (`fixtures/default-state.json`): what `npm start` and `createMock()` serve. */
export const defaultState = defaultFixture as StoreState;

/** No collections or objects, but the dev accounts and keys, so requests can authenticate. */
export function emptyState(): StoreState {
  return { accounts: DEV_ACCOUNTS, api_keys: DEV_KEYS, collections: [], objects: [] };
}
