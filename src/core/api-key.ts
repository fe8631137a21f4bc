import type { Permission } from '../openapi/operations.ts';
import type { KeyRole } from '../openapi/recording.ts';

export type { Permission };

/** An API key of an account. @see spec §5.1 (AUTH-2) */
export interface ApiKey {
  key: string;
  account_id: string;
  permissions: Permission[];
  active: boolean;
  /** A human-readable label, shown in the server banner. */
  label?: string | undefined;
}

/**
 * Compares two strings in time that depends only on the length of `presented`, never on where
 * they first differ or on the length of `expected`.
 * @note Web code has no `crypto.timingSafeEqual`, and the core must run in browsers too.
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  let diff = presented.length ^ expected.length;
  for (let i = 0; i < presented.length; i++) {
    // @note Wrapping around `expected` keeps the work independent of its length; the length
    // term above already decides the result when the lengths differ.
    diff |= presented.charCodeAt(i) ^ (expected.charCodeAt(i % Math.max(expected.length, 1)) | 0);
  }
  return diff === 0;
}

/**
 * Finds a key by comparing against every known key in constant time, so that neither the position
 * of a match nor a common prefix shows in the response time.
 */
export function findApiKey(keys: readonly ApiKey[], presented: string): ApiKey | undefined {
  let found: ApiKey | undefined;
  for (const candidate of keys) {
    if (constantTimeEqual(presented, candidate.key) && found === undefined) found = candidate;
  }
  return found;
}

/**
 * Masks a key for logs: enough to tell keys apart, never most of a key. Long keys keep their
 * prefix (often a fixed kind, like `answers_`) and last 4 characters, so at least half stays
 * hidden; shorter ones keep only the last 4; short ones nothing.
 */
export function maskApiKey(key: string): string {
  if (key.length >= 24) return `${key.slice(0, 8)}…${key.slice(-4)}`;
  if (key.length >= 12) return `…${key.slice(-4)}`;
  return '****';
}

const FULL = ['read', 'write', 'search'] as const;

/** The role of a presented key among the mock's keys (see {@link KeyRole}). */
export function keyRole(presented: string | undefined, keys: readonly ApiKey[]): KeyRole {
  if (presented === undefined) return 'none';
  const key = keys.find((k) => k.key === presented);
  if (!key) return 'unknown';
  if (!key.active) return 'inactive';
  const home = keys.find((k) => k.active && FULL.every((p) => k.permissions.includes(p)));
  if (home && key.account_id !== home.account_id) return 'otherAccount';
  return FULL.every((p) => key.permissions.includes(p)) ? 'full' : 'readonly';
}
