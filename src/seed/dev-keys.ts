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
