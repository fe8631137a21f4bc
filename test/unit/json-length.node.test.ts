import { describe, expect, it } from 'vitest';
import { jsonLength } from '../../src/core/store/json-length.ts';

/** What the storage limit counted before: the length of the JSON text. */
const byStringify = (value: unknown) => JSON.stringify(value)?.length ?? 0;

class Point {
  constructor(
    readonly x: number,
    readonly hidden = () => 1,
  ) {}
}

describe('jsonLength', () => {
  it.each([
    { name: 'an empty object', given: {} },
    { name: 'an empty array', given: [] },
    { name: 'plain text', given: { title: 'object 1', text: 'amber dune note' } },
    { name: 'quotes and backslashes', given: { 'a"b': 'c\\d"e' } },
    { name: 'control characters', given: { text: 'line\nbreak\ttab\u0000nul\u001f' } },
    { name: 'a lone surrogate', given: { text: 'x\ud800y', ['\udc00']: 1 } },
    { name: 'a surrogate pair', given: { text: '😀 emoji' } },
    { name: 'non-ASCII text', given: { text: 'déjà vu — 日本語' } },
    { name: 'numbers', given: [0, -0, 1, -1.5, 1e21, 1e-7, 123456789012, 0.1 + 0.2, 2 ** 53] },
    { name: 'non-finite numbers', given: [Infinity, -Infinity, NaN] },
    { name: 'booleans and null', given: { t: true, f: false, n: null } },
    { name: 'undefined and functions in an object', given: { a: undefined, b: () => 1, c: 1 } },
    { name: 'only members JSON skips', given: { a: undefined, b: Symbol('s') } },
    { name: 'undefined and functions in an array', given: [undefined, () => 1, Symbol('s'), 1] },
    { name: 'holes in an array', given: [1, , 3] }, // eslint-disable-line no-sparse-arrays
    { name: 'nesting', given: { a: [{ b: [[], {}, [1, [2, { c: 'd' }]]] }] } },
    { name: 'a __proto__ member', given: JSON.parse('{"__proto__": {"x": 1}, "y": 2}') },
    { name: 'a null-prototype object', given: Object.assign(Object.create(null), { a: 1 }) },
    { name: 'a date', given: { at: new Date(0) } },
    { name: 'a toJSON method', given: { a: { toJSON: () => 'swapped' } } },
    { name: 'a toJSON giving undefined', given: { a: { toJSON: () => undefined }, b: 2 } },
    { name: 'a class instance', given: { p: new Point(3) } },
    { name: 'a map', given: { m: new Map([[1, 2]]) } },
    { name: 'a bare string', given: 'text' },
    { name: 'a bare number', given: 42 },
    { name: 'undefined', given: undefined },
    { name: 'keys needing escapes', given: { 'new\nline': 1, 'tab\t': 2 } },
    { name: 'integer-like keys', given: { 2: 'b', 1: 'a', x: 'c' } },
  ])('gives the length of the JSON text: $name', ({ given }) => {
    expect(jsonLength(given)).toBe(byStringify(given));
  });

  it('gives the length of the JSON text of random content (seeded)', () => {
    let state = 7;
    const next = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    };
    const CHARS = [
      'a',
      'Z',
      '9',
      ' ',
      '"',
      '\\',
      '\n',
      '\u0001',
      'é',
      '日',
      '\ud83d',
      '\ude00',
      '/',
    ];
    const text = () =>
      Array.from({ length: next() % 12 }, () => CHARS[next() % CHARS.length]).join('');
    const value = (depth: number): unknown => {
      switch (next() % (depth > 4 ? 4 : 7)) {
        case 0:
          return text();
        case 1:
          return (next() - 2 ** 31) / [1, 7, 1000, 3][next() % 4]!;
        case 2:
          return next() % 2 === 0;
        case 3:
          return null;
        case 4:
          return Array.from({ length: next() % 5 }, () => value(depth + 1));
        default:
          return Object.fromEntries(
            Array.from({ length: next() % 5 }, () => [text(), value(depth + 1)]),
          );
      }
    };
    for (let i = 0; i < 5_000; i++) {
      const content = value(0);
      expect(jsonLength(content)).toBe(byStringify(content));
    }
  });
});
