import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../src/core/primitives/merge-patch.ts';

describe('mergePatch', () => {
  // The examples of RFC 7396, Appendix A, row by row.
  it.each([
    { target: { a: 'b' }, patch: { a: 'c' }, want: { a: 'c' } },
    { target: { a: 'b' }, patch: { b: 'c' }, want: { a: 'b', b: 'c' } },
    { target: { a: 'b' }, patch: { a: null }, want: {} },
    { target: { a: 'b', b: 'c' }, patch: { a: null }, want: { b: 'c' } },
    { target: { a: ['b'] }, patch: { a: 'c' }, want: { a: 'c' } },
    { target: { a: 'c' }, patch: { a: ['b'] }, want: { a: ['b'] } },
    {
      target: { a: { b: 'c' } },
      patch: { a: { b: 'd', c: null } },
      want: { a: { b: 'd' } },
    },
    { target: { a: [{ b: 'c' }] }, patch: { a: [1] }, want: { a: [1] } },
    { target: ['a', 'b'], patch: ['c', 'd'], want: ['c', 'd'] },
    { target: { a: 'b' }, patch: ['c'], want: ['c'] },
    { target: { a: 'foo' }, patch: null, want: null },
    { target: { a: 'foo' }, patch: 'bar', want: 'bar' },
    { target: { e: null }, patch: { a: 1 }, want: { e: null, a: 1 } },
    { target: [1, 2], patch: { a: 'b', c: null }, want: { a: 'b' } },
    { target: {}, patch: { a: { bb: { ccc: null } } }, want: { a: { bb: {} } } },
  ])('$target + $patch', ({ target, patch, want }) => {
    expect(mergePatch(target, patch)).toEqual(want);
  });

  it('keeps a "__proto__" key a plain member and leaves the target unchanged', () => {
    const target = { a: 1 };
    const merged = mergePatch(target, JSON.parse('{"__proto__":{"polluted":true}}')) as object;
    expect(Object.keys(merged)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(target).toEqual({ a: 1 });
  });
});
