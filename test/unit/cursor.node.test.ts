import { describe, expect, it } from 'vitest';
import { CursorCodec, fingerprint } from '../../src/core/primitives/cursor.ts';

const codec = new CursorCodec('secret-1');
const position = { created_at: '2026-01-01T00:00:00.000Z', id: 'col_1' };
const keyset = codec.encodeKeyset('listCollections:acme:asc', position);
const offset = codec.encodeOffset('search:acme', 20);

/** A cursor whose body says `payload`, sealed with `secret` (what a forger would have to do). */
function forge(payload: unknown, secret: string): string {
  const body = btoa(JSON.stringify(payload)).replaceAll('+', '-').replaceAll('/', '_');
  const clean = body.replace(/=+$/, '');
  return `${clean}.${fingerprint(secret + clean)}`;
}

describe('CursorCodec', () => {
  it('decodes its own cursors in their own scope', () => {
    expect(codec.decodeKeyset('listCollections:acme:asc', keyset)).toEqual(position);
    expect(codec.decodeOffset('search:acme', offset)).toBe(20);
  });

  it.each([
    { name: 'another scope', scope: 'listCollections:acme:desc', cursor: keyset },
    { name: 'another account', scope: 'listCollections:globex:asc', cursor: keyset },
    { name: 'an offset cursor', scope: 'search:acme', cursor: keyset },
    { name: 'a truncated cursor', scope: 'listCollections:acme:asc', cursor: keyset.slice(0, -1) },
    { name: 'no seal', scope: 'listCollections:acme:asc', cursor: keyset.split('.')[0]! },
    { name: 'an empty string', scope: 'listCollections:acme:asc', cursor: '' },
    { name: 'a lone dot', scope: 'listCollections:acme:asc', cursor: '.' },
    {
      name: 'another secret',
      scope: 'listCollections:acme:asc',
      cursor: new CursorCodec('secret-2').encodeKeyset('listCollections:acme:asc', position),
    },
    {
      name: 'a tampered body',
      scope: 'listCollections:acme:asc',
      cursor: `x${keyset}`,
    },
    {
      name: 'a sealed payload of the wrong shape',
      scope: 'listCollections:acme:asc',
      cursor: forge({ s: fingerprint('listCollections:acme:asc'), k: [1, 2] }, 'secret-1'),
    },
  ])('refuses a keyset cursor from $name', ({ scope, cursor }) => {
    expect(codec.decodeKeyset(scope, cursor)).toBeUndefined();
  });

  it.each([
    { name: 'a negative offset', n: -1 },
    { name: 'a fractional offset', n: 1.5 },
    { name: 'an unsafe integer', n: 2 ** 60 },
    { name: 'a string offset', n: '3' },
  ])('refuses an offset cursor with $name', ({ n }) => {
    const cursor = forge({ s: fingerprint('search:acme'), n }, 'secret-1');
    expect(codec.decodeOffset('search:acme', cursor)).toBeUndefined();
  });
});
