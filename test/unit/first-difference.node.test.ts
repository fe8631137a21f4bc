/**
 * firstDifference: the first place two JSON values part, as a story tells it. Offsets count code
 * points (a surrogate pair is one, a combining mark is one of its own); the windows around an
 * offset hold CONTEXT code points on each side, `…` where they are cut.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTEXT,
  firstDifference,
  tellDifference,
  type Difference,
} from '../../src/contract/judges/difference.ts';
import {
  contentAsWritten,
  metadataAsWritten,
  objectCount,
} from '../../src/contract/judges/values.ts';
import type { Verdict } from '../../src/contract/judges/verdict.ts';

/** A long text with one character changed at `at`: what a server that mangles a character sends. */
const long = (at: number, by: string) => {
  const text = 'ünïcödé Ελληνικά '.repeat(400);
  const points = Array.from(text);
  points[at] = by;
  return { text, changed: points.join('') };
};
const { text, changed } = long(5000, '\uFFFD');
const around = Array.from(text).slice(5000 - CONTEXT, 5000 + CONTEXT);

describe('firstDifference', () => {
  it.each<{ name: string; expected: unknown; actual: unknown; want: Difference | undefined }>([
    { name: 'equal scalars', expected: 3, actual: 3, want: undefined },
    {
      name: 'objects with their keys in another order',
      expected: { a: 1, b: [1, { c: 'x' }] },
      actual: { b: [1, { c: 'x' }], a: 1 },
      want: undefined,
    },
    {
      name: 'two numbers',
      expected: 3,
      actual: 4,
      want: { pointer: '', expected: '3', actual: '4' },
    },
    {
      name: 'a nested object, deep down',
      expected: { a: { b: { c: [1, 2, { d: true }] } } },
      actual: { a: { b: { c: [1, 2, { d: false }] } } },
      want: { pointer: '/a/b/c/2/d', expected: 'true', actual: 'false' },
    },
    {
      name: 'a key with / and ~ in it (RFC 6901 escapes)',
      expected: { 'a/b~c': 1 },
      actual: { 'a/b~c': 2 },
      want: { pointer: '/a~1b~0c', expected: '1', actual: '2' },
    },
    {
      name: 'a missing key',
      expected: { a: 1, b: 2 },
      actual: { a: 1 },
      want: { pointer: '/b', expected: '2', actual: '(absent)' },
    },
    {
      name: 'an extra key',
      expected: { a: 1 },
      actual: { a: 1, z: { y: 1 } },
      want: { pointer: '/z', expected: '(absent)', actual: '{"y":1}' },
    },
    {
      name: 'an array one item shorter',
      expected: [1, 2, 3],
      actual: [1, 2],
      want: { pointer: '/2', expected: '3', actual: '(absent)' },
    },
    {
      name: 'an array one item longer',
      expected: ['a'],
      actual: ['a', 'b'],
      want: { pointer: '/1', expected: '(absent)', actual: '"b"' },
    },
    {
      name: 'a type change: an object for an array',
      expected: { list: [1] },
      actual: { list: { 0: 1 } },
      want: { pointer: '/list', expected: '[1]', actual: '{"0":1}' },
    },
    {
      name: 'a type change: a string for a number',
      expected: { n: 1 },
      actual: { n: '1' },
      want: { pointer: '/n', expected: '1', actual: '"1"' },
    },
    {
      name: 'a type change: null for an object',
      expected: { m: {} },
      actual: { m: null },
      want: { pointer: '/m', expected: '{}', actual: 'null' },
    },
    {
      name: 'strings that part at offset 0',
      expected: 'abc',
      actual: 'xbc',
      want: {
        pointer: '',
        offset: 0,
        expected: '"abc"',
        actual: '"xbc"',
        at: { expected: 'U+0061', actual: 'U+0078' },
      },
    },
    {
      name: 'strings that part in the middle of a long text (both cut, … on each side)',
      expected: { content: { long: text } },
      actual: { content: { long: changed } },
      want: {
        pointer: '/content/long',
        offset: 5000,
        expected: `"…${around.join('')}…"`,
        actual: `"…${[...around.slice(0, CONTEXT), '\uFFFD', ...around.slice(CONTEXT + 1)].join('')}…"`,
        at: {
          expected: `U+${around[CONTEXT]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
          actual: 'U+FFFD',
        },
      },
    },
    {
      name: 'strings that part at the end: one is the other cut short',
      expected: 'hello world',
      actual: 'hello',
      want: {
        pointer: '',
        offset: 5,
        expected: '"hello world"',
        actual: '"hello"',
        at: { expected: 'U+0020', actual: 'end' },
      },
    },
    {
      name: 'a surrogate pair that differs in its low half: offset in code points, never half a pair',
      expected: 'ab😀c',
      actual: 'ab😃c',
      want: {
        pointer: '',
        offset: 2,
        expected: '"ab😀c"',
        actual: '"ab😃c"',
        at: { expected: 'U+1F600', actual: 'U+1F603' },
      },
    },
    {
      name: 'a character outside the BMP before the difference counts once',
      expected: '𝔘𝔘x',
      actual: '𝔘𝔘y',
      want: {
        pointer: '',
        offset: 2,
        expected: '"𝔘𝔘x"',
        actual: '"𝔘𝔘y"',
        at: { expected: 'U+0078', actual: 'U+0079' },
      },
    },
    {
      name: 'é as one code point and as e with a combining mark part at the e',
      expected: 'café',
      actual: 'cafe\u0301',
      want: {
        pointer: '',
        offset: 3,
        expected: '"café"',
        actual: '"cafe\u0301"',
        at: { expected: 'U+00E9', actual: 'U+0065' },
      },
    },
    {
      name: 'a combining mark added at the end',
      expected: 'e',
      actual: 'e\u0301',
      want: {
        pointer: '',
        offset: 1,
        expected: '"e"',
        actual: '"e\u0301"',
        at: { expected: 'end', actual: 'U+0301' },
      },
    },
    {
      name: 'a control character shows escaped',
      expected: 'a\nb',
      actual: 'a\tb',
      want: {
        pointer: '',
        offset: 1,
        expected: '"a\\nb"',
        actual: '"a\\tb"',
        at: { expected: 'U+000A', actual: 'U+0009' },
      },
    },
  ])('$name', ({ expected, actual, want }) => {
    expect(firstDifference(expected, actual)).toEqual(want);
  });
});

describe('tellDifference', () => {
  it.each<{ name: string; difference: Difference; told: string }>([
    {
      name: 'the whole value',
      difference: { pointer: '', expected: '3', actual: '4' },
      told: 'the model has 3, the target 4',
    },
    {
      name: 'a value at a pointer',
      difference: { pointer: '/b', expected: '2', actual: '(absent)' },
      told: 'at /b: the model has 2, the target (absent)',
    },
    {
      name: 'two strings: where they part and the code point of each there',
      difference: {
        pointer: '/long',
        offset: 5000,
        expected: '"…ab…"',
        actual: '"…a�…"',
        at: { expected: 'U+0062', actual: 'U+FFFD' },
      },
      told: 'at /long, character 5000 (counted in code points): the model has "…ab…" (U+0062), the target "…a�…" (U+FFFD)',
    },
    {
      name: 'a string cut short',
      difference: {
        pointer: '',
        offset: 5,
        expected: '"hello world"',
        actual: '"hello"',
        at: { expected: 'U+0020', actual: 'end' },
      },
      told: 'character 5 (counted in code points): the model has "hello world" (U+0020), the target "hello" (its end)',
    },
  ])('$name', ({ difference, told }) => {
    expect(tellDifference(difference, 'the model')).toBe(told);
  });
});

describe('the judges that compare two values tell where they first part', () => {
  const sent = { title: 'complete', nested: { list: [1, { deep: 'kept' }] } };
  const came = { title: 'complete', nested: { list: [1, { deep: 'lost' }] } };
  it.each<{ name: string; verdict: Verdict; message: string; pointer: string }>([
    {
      name: 'OBJ-GET-1, content where the description says it lives',
      verdict: contentAsWritten([sent], () => false, came, 'what was sent'),
      message:
        'its content: at /nested/list/1/deep, character 0 (counted in code points): what was sent has "kept" (U+006B), the target "lost" (U+006C)',
      pointer: '/nested/list/1/deep',
    },
    {
      name: 'OBJ-GET-1, content in a field of the object the description does not name: what came back of it',
      verdict: contentAsWritten(
        [sent],
        () => false,
        { id: 'obj_1', created_at: '2024-01-01T00:00:00Z', body: came },
        'what was sent',
      ),
      message:
        'its content: at /nested/list/1/deep, character 0 (counted in code points): what was sent has "kept" (U+006B), the target "lost" (U+006C)',
      pointer: '/nested/list/1/deep',
    },
    {
      name: 'OBJ-GET-1, content as the object’s own fields, one of them missing',
      verdict: contentAsWritten(
        [sent],
        () => false,
        { id: 'obj_1', title: 'complete' },
        'what was sent',
      ),
      message:
        'its content: at /nested: what was sent has {"list":[1,{"deep":"kept"}]}, the target (absent)',
      pointer: '/nested',
    },
    {
      name: 'COLL-3, metadata',
      verdict: metadataAsWritten('its metadata', [{ a: 1, b: 'x' }], { a: 1 }, 'the model'),
      message: 'its metadata: at /b: the model has "x", the target (absent)',
      pointer: '/b',
    },
    {
      name: 'COLL-2, a count',
      verdict: objectCount('collection #1', 2, 3, 'the model'),
      message: 'collection #1: the model has 2, the target 3',
      pointer: '',
    },
  ])('$name', ({ verdict, message, pointer }) => {
    expect(verdict).toMatchObject({ outcome: 'diverged', message, difference: { pointer } });
  });
});
