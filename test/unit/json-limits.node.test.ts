import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, nonFiniteNumberAt } from '../../src/core/json-limits.ts';

/** `levels` objects or arrays, one inside the next, built without recursion. */
function nested(levels: number, kind: 'object' | 'array'): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = kind === 'object' ? { child: value } : [value];
  return value;
}

/** What a YAML alias inside its own anchor makes (`&a [1, *a]`): a cycle, deeper than any limit. */
function selfContaining(): unknown {
  const value: unknown[] = [1];
  value.push(value);
  return value;
}

describe('nestsDeeperThan', () => {
  it.each([
    { name: 'a string', value: 'text', max: 0, want: false },
    { name: 'null', value: null, max: 0, want: false },
    { name: 'one empty object against 1', value: {}, max: 1, want: false },
    { name: 'one empty object against 0', value: {}, max: 0, want: true },
    { name: 'objects 4 deep against 4', value: nested(4, 'object'), max: 4, want: false },
    { name: 'objects 5 deep against 4', value: nested(5, 'object'), max: 4, want: true },
    { name: 'arrays 5 deep against 4', value: nested(5, 'array'), max: 4, want: true },
    { name: 'arrays 4 deep against 4', value: nested(4, 'array'), max: 4, want: false },
    {
      name: 'the deep branch after a shallow one',
      value: { a: 1, b: [2, { c: nested(3, 'object') }] },
      max: 5,
      want: true,
    },
    {
      name: 'the deep branch after a shallow one, within the limit',
      value: { a: 1, b: [2, { c: nested(3, 'object') }] },
      max: 6,
      want: false,
    },
    { name: '100,000 levels against 64', value: nested(100_000, 'array'), max: 64, want: true },
    { name: 'an array that contains itself', value: selfContaining(), max: 64, want: true },
  ])('$name: $want', ({ value, max, want }) => {
    expect(nestsDeeperThan(value, max)).toBe(want);
  });

  it('counts own properties only', () => {
    const inherited = Object.create({ deep: nested(10, 'object') }) as object;
    expect(nestsDeeperThan({ inherited }, 3)).toBe(false);
  });
});

describe('nonFiniteNumberAt', () => {
  it.each([
    { value: { a: [1, 2, { b: Infinity }] }, want: '/a/2/b' },
    { value: { a: 1e308, b: [-1e308] }, want: undefined },
    { value: [0, -Infinity], want: '/1' },
  ])('$want in $value', ({ value, want }) => {
    expect(nonFiniteNumberAt(value)).toBe(want);
  });
});
