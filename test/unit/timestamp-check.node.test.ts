/**
 * A snapshot's timestamps are accepted exactly when `openapi.yaml`'s `Timestamp` (its pattern and
 * Ajv's `date-time` format) accepts them, as `mock.db` checks a record: the loader checks the
 * calendar itself instead of running the format (`src/core/snapshot/timestamp-check.ts`).
 */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/openapi/ajv.ts';
import { openapiDocument } from '../../src/generated/openapi-document.ts';
import { toTimestamp } from '../../src/core/store/clock.ts';
import { collectionRecordSchema } from '../../src/core/store/records.ts';
import { parseSnapshot, SnapshotError } from '../../src/core/snapshot/snapshot.ts';
import { isDateTime, TIMESTAMP_PATTERN } from '../../src/core/snapshot/timestamp-check.ts';
import { MAX_INSTANT_MS } from '../../src/core/limits.ts';

/** What the API's own schema says of a collection record with these timestamps (as `mock.db`). */
const validateRecord = compileSchema(collectionRecordSchema);
const record = (created_at: string, updated_at = created_at) => ({
  id: 'col_00000000000000000001',
  account_id: 'acme',
  name: 'a',
  metadata: {},
  created_at,
  updated_at,
});
const byTheApi = (created: string, updated = created) =>
  validateRecord(record(created, updated)) as boolean;

/** Whether a snapshot holding one collection with these timestamps loads. */
function byTheLoader(created: string, updated = created): boolean {
  const snapshot = {
    accounts: [{ id: 'acme', name: 'Acme' }],
    api_keys: [],
    collections: [record(created, updated)],
    objects: [],
  };
  try {
    parseSnapshot(snapshot);
    return true;
  } catch (error) {
    if (error instanceof SnapshotError) return false;
    throw error;
  }
}

describe('the snapshot check of timestamps', () => {
  it.each([
    { given: '2026-01-15T09:30:00.000Z', want: true },
    { given: '2026-02-28T23:59:59.999Z', want: true },
    { given: '2026-02-29T00:00:00.000Z', want: false },
    { given: '2026-02-30T00:00:00.000Z', want: false },
    { given: '2024-02-29T00:00:00.000Z', want: true },
    { given: '2000-02-29T00:00:00.000Z', want: true },
    { given: '1900-02-29T00:00:00.000Z', want: false },
    { given: '2100-02-29T00:00:00.000Z', want: false },
    { given: '0000-02-29T00:00:00.000Z', want: true },
    { given: '0000-01-01T00:00:00.000Z', want: true },
    { given: '9999-12-31T23:59:59.999Z', want: true },
    { given: '2026-04-30T00:00:00.000Z', want: true },
    { given: '2026-04-31T00:00:00.000Z', want: false },
    { given: '2026-12-31T00:00:00.000Z', want: true },
    { given: '2026-12-32T00:00:00.000Z', want: false },
    { given: '2026-13-01T00:00:00.000Z', want: false },
    { given: '2026-00-01T00:00:00.000Z', want: false },
    { given: '2026-01-00T00:00:00.000Z', want: false },
    { given: '2026-01-01T24:00:00.000Z', want: false },
    { given: '2026-01-01T23:60:00.000Z', want: false },
    { given: '2026-01-01T23:59:60.000Z', want: true },
    { given: '2026-01-01T23:59:60.999Z', want: true },
    { given: '2026-01-01T23:58:60.000Z', want: false },
    { given: '2026-01-01T22:59:60.000Z', want: false },
    { given: '2026-01-01T23:59:61.000Z', want: false },
    { given: '2026-01-01T00:00:99.000Z', want: false },
    // Shapes the pattern refuses: offsets, other fractions, lower case, a space, no zone.
    { given: '2026-01-15T09:30:00.000+00:00', want: false },
    { given: '2026-01-15T10:30:00.000+01:00', want: false },
    { given: '2026-01-15T09:30:00Z', want: false },
    { given: '2026-01-15T09:30:00.1Z', want: false },
    { given: '2026-01-15T09:30:00.1234Z', want: false },
    { given: '2026-01-15t09:30:00.000z', want: false },
    { given: '2026-01-15 09:30:00.000Z', want: false },
    { given: '2026-01-15T09:30:00.000', want: false },
    { given: '2026-1-15T09:30:00.000Z', want: false },
    { given: '+02026-01-15T09:30:00.000Z', want: false },
    { given: '', want: false },
  ])('accepts $given: $want, as the API does', ({ given, want }) => {
    expect(byTheApi(given)).toBe(want);
    expect(byTheLoader(given)).toBe(want);
  });

  it('names the field the API would name', () => {
    expect(() =>
      parseSnapshot({
        accounts: [{ id: 'acme', name: 'Acme' }],
        api_keys: [],
        collections: [record('2026-01-01T00:00:00.000Z', '2026-02-30T00:00:00.000Z')],
        objects: [],
      }),
    ).toThrow('Invalid state: /collections/0/updated_at must match format "date-time"');
  });

  it('agrees with the API on every field value the pattern lets through (seeded)', () => {
    // @note Each two-digit field drawn from 00-99, so every out-of-range value the pattern
    // admits (month 13, hour 24, second 60 and 61...) is tried beside the valid ones.
    let state = 0x2026;
    const next = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    };
    const two = (n: number) => String(n).padStart(2, '0');
    const pick = (favoured: number) => (next() % 2 === 0 ? next() % 100 : next() % (favoured + 2));
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const year = [0, 1900, 2000, 2024, 2026, 2100, 2400, 9999, next() % 10_000][next() % 9]!;
      const timestamp =
        `${String(year).padStart(4, '0')}-${two(pick(12))}-${two(pick(31))}` +
        `T${two(pick(23))}:${two(pick(59))}:${two(pick(60))}.${String(next() % 1000).padStart(3, '0')}Z`;
      const api = byTheApi(timestamp);
      expect(isDateTime(timestamp), timestamp).toBe(api);
      if (i % 20 === 0) expect(byTheLoader(timestamp), timestamp).toBe(api);
      if (api) accepted += 1;
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  });

  it('accepts every timestamp the mock writes', () => {
    for (let i = 0; i <= 1_000; i++) {
      const at = toTimestamp(Math.floor((MAX_INSTANT_MS / 1_000) * i));
      expect(byTheLoader(at, at), at).toBe(true);
      expect(byTheApi(at), at).toBe(true);
    }
  });

  it("uses openapi.yaml's Timestamp pattern, which adds only the date-time format", () => {
    const timestamp = openapiDocument.components.schemas.Timestamp as Record<string, unknown>;
    expect(timestamp.pattern).toBe(TIMESTAMP_PATTERN);
    const constraints = Object.keys(timestamp).filter(
      (key) => !['description', 'examples'].includes(key) && !key.startsWith('x-'),
    );
    expect(constraints.sort()).toEqual(['format', 'pattern', 'type']);
    expect(timestamp.type).toBe('string');
    expect(timestamp.format).toBe('date-time');
  });
});
