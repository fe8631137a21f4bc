import { describe, expect, it } from 'vitest';
import { headerValue, headerValues } from '../../src/node/raw-headers.ts';

// Node's raw list: name as sent, value, name, value ...
const raw = [
  'Host',
  '127.0.0.1:4010',
  'AUTHORIZATION',
  'Bearer a',
  'x-answers-api-key',
  'k',
  'authorization',
  'Bearer b',
  'Content-Length',
  '0',
];

describe('headerValue / headerValues', () => {
  it.each([
    { name: 'host', values: ['127.0.0.1:4010'], value: '127.0.0.1:4010' },
    { name: 'authorization', values: ['Bearer a', 'Bearer b'], value: 'Bearer a, Bearer b' },
    { name: 'x-answers-api-key', values: ['k'], value: 'k' },
    { name: 'content-length', values: ['0'], value: '0' },
    { name: 'origin', values: [], value: undefined },
    { name: 'hos', values: [], value: undefined },
    // @note Only letters fold: "-" is not "\r" (0x0d, which is "-" minus 32).
    { name: 'x-answers\rapi-key', values: [], value: undefined },
  ])('$name', ({ name, values, value }) => {
    expect(headerValues(raw, name)).toEqual(values);
    expect(headerValue(raw, name)).toBe(value);
  });

  it('matches names whatever their case, and nothing of another length', () => {
    expect(headerValue(['X-Answers-Api-Key', 'v'], 'x-answers-api-key')).toBe('v');
    expect(headerValue(['x-answers-api-keys', 'v'], 'x-answers-api-key')).toBeUndefined();
    expect(headerValue(['X-ANSWERS-API-KEY', 'v'], 'x-answers-api-key')).toBe('v');
  });
});
