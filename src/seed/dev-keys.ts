import type { ApiKey } from '../core/api-key.ts';
import type { Account } from '../core/store/records.ts';

/** The accounts of every generated data set. `initech` has a key but no data: an empty account. */
export const DEV_ACCOUNTS: Account[] = [
  { id: 'acme', name: 'Acme Corporation' },
  { id: 'globex', name: 'Globex Inc.' },
  { id: 'initech', name: 'Initech' },
];

/**
 * The well-known development keys, like a payment provider's test keys. They are public on
 * purpose: never use them outside a mock.
 */
export const DEV_KEYS: ApiKey[] = [
  {
    key: 'answers_test_full_acme',
    account_id: 'acme',
    permissions: ['read', 'write', 'search'],
    active: true,
    label: 'acme, every permission',
  },
  {
    key: 'answers_test_readonly_acme',
    account_id: 'acme',
    permissions: ['read', 'search'],
    active: true,
    label: 'acme, read and search only',
  },
  {
    key: 'answers_test_full_globex',
    account_id: 'globex',
    permissions: ['read', 'write', 'search'],
    active: true,
    label: 'globex, every permission',
  },
  {
    key: 'answers_test_inactive_acme',
    account_id: 'acme',
    permissions: ['read', 'write', 'search'],
    active: false,
    label: 'acme, inactive',
  },
  {
    key: 'answers_test_full_initech',
    account_id: 'initech',
    permissions: ['read', 'write', 'search'],
    active: true,
    label: 'initech (no data), every permission',
  },
];

/**
 * The development keys by the role the contract suite, explore and replay give them: what a
 * recording or HAR of the mock presented (read without loading the mock).
 */
export const DEV_KEYS_BY_ROLE = {
  full: 'answers_test_full_acme',
  readonly: 'answers_test_readonly_acme',
  otherAccount: 'answers_test_full_globex',
  inactive: 'answers_test_inactive_acme',
};
