/**
 * A problem body is written from a head kept per kind and the detail quoted by hand
 * (core/problem.ts); it must be byte for byte what stringifying the whole object gives.
 */
import { describe, expect, it } from 'vitest';
import { problem, problemResponse } from '../../src/core/problem.ts';

const DETAILS: Array<[string, string]> = [
  ['plain text', 'The request carries no API key.'],
  ['empty', ''],
  ['a quote', 'The name "Drafts" is taken.'],
  ['a backslash', 'path C:\\x'],
  ['control characters', 'tab\there, newline\n, NUL \u0000, unit separator \u001f'],
  ['a lone high surrogate', 'broken \ud83d here'],
  ['a lone low surrogate', 'broken \ude00 here'],
  ['a surrogate pair', 'emoji 😀 fine'],
  ['non-ASCII', 'Größe — 名前 ✓'],
  ['line and paragraph separators', 'a\u2028b\u2029c'],
  ['DEL and C1 controls', 'x\u007f\u0085y'],
];

describe('a problem body is the JSON of its fields', () => {
  it.each(DETAILS)('with a detail of %s', (_, detail) => {
    const response = problem('invalid_api_key', detail);
    expect(response.body).toBe(
      JSON.stringify({
        type: 'urn:answers:problem:invalid_api_key',
        title: 'Invalid API key',
        status: 401,
        code: 'invalid_api_key',
        detail,
      }),
    );
  });

  it('with field errors after the detail', () => {
    const errors = [{ location: 'body' as const, pointer: '/name', message: 'must be "x"' }];
    const response = problem('validation_failed', 'bad', { errors });
    expect(JSON.parse(response.body!)).toEqual({
      type: 'urn:answers:problem:validation_failed',
      title: 'Validation failed',
      status: 400,
      code: 'validation_failed',
      detail: 'bad',
      errors,
    });
    expect(response.body).toBe(JSON.stringify(JSON.parse(response.body!)));
  });

  it('for kinds outside the API codes, each with its own head', () => {
    const first = problemResponse({ code: 'forbidden_host', title: 'Host "x"', status: 403 }, 'a');
    const second = problemResponse({ code: 'forbidden_host', title: 'Other', status: 400 }, 'b');
    expect(JSON.parse(first.body!)).toMatchObject({ title: 'Host "x"', status: 403, detail: 'a' });
    expect(JSON.parse(second.body!)).toMatchObject({ title: 'Other', status: 400, detail: 'b' });
  });
});
