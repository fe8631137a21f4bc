/**
 * Security of the mock itself (issue "Hardening", part 5): keys are compared in constant time, and
 * a presented key is compared against every key, whichever matches (read counts prove it).
 */
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, findApiKey, type ApiKey } from '../../../src/core/api-key.ts';
import { FULL } from './servers.ts';

describe('constantTimeEqual', () => {
  it.each([
    ['equal', 'answers_test_full_acme', 'answers_test_full_acme', true],
    ['different, same length', 'answers_test_full_acme', 'answers_test_full_acmf', false],
    ['different first character', 'bnswers_test_full_acme', 'answers_test_full_acme', false],
    ['presented is a prefix of expected', 'answers_test', 'answers_test_full_acme', false],
    ['expected is a prefix of presented', 'answers_test_full_acme', 'answers_test', false],
    ['presented longer', 'answers_test_full_acme_x', 'answers_test_full_acme', false],
    ['presented shorter', 'a', 'answers_test_full_acme', false],
    ['both empty', '', '', true],
    ['presented empty', '', 'answers_test_full_acme', false],
    ['expected empty', 'answers_test_full_acme', '', false],
    ['case differs', 'ANSWERS_TEST_FULL_ACME', 'answers_test_full_acme', false],
    ['non-ASCII equal', 'clé-€', 'clé-€', true],
    ['non-ASCII different', 'clé-€', 'cle-€', false],
    ['repeated expected pattern', 'abab', 'ab', false],
  ])('%s', (_, presented, expected, result) => {
    expect(constantTimeEqual(presented, expected)).toBe(result);
  });
});

describe('findApiKey', () => {
  /** Keys whose `key` getters count every read. */
  function countingKeys(values: string[]) {
    const reads = values.map(() => 0);
    const keys = values.map((value, i): ApiKey => ({
      get key() {
        reads[i]!++;
        return value;
      },
      account_id: `account${i}`,
      permissions: ['read'],
      active: true,
    }));
    return { keys, reads };
  }

  const VALUES = ['key_alpha_0001', 'key_bravo_0002', 'key_charlie_03', 'key_delta_0004'];

  it.each([
    ['the first key', 'key_alpha_0001', 0],
    ['a middle key', 'key_charlie_03', 2],
    ['the last key', 'key_delta_0004', 3],
  ])('finds %s and still compares against every key', (_, presented, index) => {
    const { keys, reads } = countingKeys(VALUES);
    expect(findApiKey(keys, presented)).toBe(keys[index]);
    expect(reads).toEqual([1, 1, 1, 1]);
  });

  it.each([
    ['an unknown key', 'key_echo_00005'],
    ['a prefix of a key', 'key_alpha'],
    ['a key plus a suffix', 'key_alpha_0001x'],
    ['the empty string', ''],
  ])('returns undefined for %s after comparing against every key', (_, presented) => {
    const { keys, reads } = countingKeys(VALUES);
    expect(findApiKey(keys, presented)).toBeUndefined();
    expect(reads).toEqual([1, 1, 1, 1]);
  });

  it('returns the first of two equal keys, having read both', () => {
    const { keys, reads } = countingKeys(['dup_key_00001', 'dup_key_00001', 'other_key_0001']);
    expect(findApiKey(keys, 'dup_key_00001')).toBe(keys[0]);
    expect(reads).toEqual([1, 1, 1]);
  });

  it('returns undefined for an empty key list', () => {
    expect(findApiKey([], FULL)).toBeUndefined();
  });
});
