/** The read windows of a run (settle.ts `windowsOf`): `--settle` overrides, else the description's. */
import { describe, expect, it } from 'vitest';
import { readKindOf, windowsOf } from '../../src/contract/settle.ts';

describe('windowsOf', () => {
  it.each([
    ['nothing said: every read at once', undefined, undefined, { lists: 0, search: 0, cascade: 0 }],
    [
      'the description, each kind it states',
      { cascade: 400 },
      undefined,
      { lists: 0, search: 0, cascade: 400 },
    ],
    [
      '--settle overrides every window',
      { cascade: 400, search: 250 },
      1_000,
      { lists: 1_000, search: 1_000, cascade: 1_000 },
    ],
    ['--settle 0 overrides too', { cascade: 400 }, 0, { lists: 0, search: 0, cascade: 0 }],
    ['a negative --settle is none', undefined, -5, { lists: 0, search: 0, cascade: 0 }],
  ] as const)('%s', (_, consistency, settle, windows) => {
    expect(windowsOf(consistency, settle)).toEqual(windows);
  });
});

describe('readKindOf', () => {
  it.each([
    ['search', 'search'],
    ['getObject', 'cascade'],
    ['getCollection', 'cascade'],
    ['listCollections', 'lists'],
    ['listObjects', 'lists'],
  ] as const)('%s waits within the %s window', (operation, kind) => {
    expect(readKindOf(operation)).toBe(kind);
  });
});
