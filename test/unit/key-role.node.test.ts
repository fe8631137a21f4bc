/** The role a recording stores instead of a key's value, for each kind of key. */
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../src/core/api-key.ts';
import { keyRole } from '../../src/core/api-key.ts';
import { DEV_KEYS, DEV_KEYS_BY_ROLE } from '../../src/seed/dev-keys.ts';

const KEYS: ApiKey[] = [
  { key: 'home_full', account_id: 'home', permissions: ['read', 'write', 'search'], active: true },
  { key: 'home_read', account_id: 'home', permissions: ['read', 'search'], active: true },
  { key: 'home_old', account_id: 'home', permissions: ['read', 'write', 'search'], active: false },
  { key: 'away_full', account_id: 'away', permissions: ['read', 'write', 'search'], active: true },
  { key: 'away_read', account_id: 'away', permissions: ['read'], active: true },
];

describe('keyRole', () => {
  it.each([
    ['home_full', 'full'],
    ['home_read', 'readonly'],
    ['home_old', 'inactive'],
    ['away_full', 'otherAccount'],
    ['away_read', 'otherAccount'],
    ['made_up', 'unknown'],
    [undefined, 'none'],
  ] as const)('calls %s %s', (presented, role) => {
    expect(keyRole(presented, KEYS)).toBe(role);
  });

  it('takes the home account from the first active full key, whatever the order', () => {
    const [, , inactive, away] = KEYS;
    expect(keyRole('home_full', [inactive!, away!, ...KEYS])).toBe('otherAccount');
  });
});

describe('the development keys by role', () => {
  it.each(Object.entries(DEV_KEYS_BY_ROLE))('%s is a dev key of that role', (role, key) => {
    expect(keyRole(key, DEV_KEYS)).toBe(role);
  });
});
