/** How long a `Retry-After` header asks the contract suite to wait (RFC 9110 §10.2.3). */
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/contract/client.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('retryAfterMs', () => {
  it.each([
    { header: '0', want: 0 },
    { header: '1', want: 1_000 },
    { header: ' 12 ', want: 12_000 },
    { header: 'Wed, 25 Nov 2026 12:00:05 GMT', want: 5_000 },
    { header: 'Wed, 25 Nov 2026 11:59:00 GMT', want: 0 },
    { header: '-1', want: undefined },
    { header: '1.5', want: undefined },
    { header: 'soon', want: undefined },
    { header: null, want: undefined },
  ])('reads $header as $want ms', ({ header, want }) => {
    expect(retryAfterMs(header, NOW)).toBe(want);
  });
});
