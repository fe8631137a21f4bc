/**
 * What the contract commands print or write (src/contract/redaction.ts, applied by output.ts):
 * the keys a run was given, however a target echoes them, Bearer tokens and secret query values
 * are redacted; control characters never reach a terminal raw; JSON and XML stay valid.
 */
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { escapeXml } from '../../src/contract/runner/junit.ts';
import {
  jsonWithoutControls,
  keysGiven,
  redactor,
  visibleControls,
  xmlWithoutControls,
} from '../../src/contract/redaction.ts';

const KEY = 'sk_live_Zx9q/7W+m2&"x';
const READ = 'ro_key_5Pq3r8Tn';
const redact = redactor([
  { label: 'api-key', value: KEY },
  { label: 'readonly-key', value: READ },
  { label: 'inactive-key', value: 'k' },
]);

describe('redactor', () => {
  it.each<[string, string, string]>([
    ['as it is', `you sent ${READ}.`, 'you sent [redacted readonly-key].'],
    ['twice, side by side', `${READ}${READ}`, '[redacted readonly-key][redacted readonly-key]'],
    ['inside a JSON string', JSON.stringify({ m: `key ${KEY}` }), '{"m":"key [redacted api-key]"}'],
    [
      'a JSON body quoted in a JSON report',
      JSON.stringify({ t: JSON.stringify({ m: KEY }) }),
      '{"t":"{\\"m\\":\\"[redacted api-key]\\"}"}',
    ],
    ['URL-encoded', `?q=${encodeURIComponent(KEY)}`, '?q=[redacted api-key]'],
    [
      'form-encoded',
      `q=${new URLSearchParams({ v: KEY }).toString().slice(2)}`,
      'q=[redacted api-key]',
    ],
    ['escaped for XML', `<f m="${escapeXml(KEY)}"/>`, '<f m="[redacted api-key]"/>'],
    ['a key too short to be one is printed', 'key k', 'key k'],
    [
      'a Bearer token of no run key',
      'Authorization: Bearer eyJhb.c2ln-4_x',
      'Authorization: Bearer [redacted token]',
    ],
    ['a Bearer token in any letter case', 'bearer AbC123', 'bearer [redacted token]'],
    ['a Bearer token URL-encoded', 'Bearer%20tok_123', 'Bearer%20[redacted token]'],
    [
      'a Bearer token JSON-escaped after a newline',
      'Bearer\\ntok_123',
      'Bearer\\n[redacted token]',
    ],
    ['prose after Bearer', 'has no Bearer challenge', 'has no Bearer challenge'],
    [
      'a Bearer challenge',
      'WWW-Authenticate: Bearer realm="api"',
      'WWW-Authenticate: Bearer realm="api"',
    ],
    ['a placeholder', 'the key as "Bearer <key> extra"', 'the key as "Bearer <key> extra"'],
    [
      'access_token in a URL',
      'GET /c?limit=2&access_token=abc.def',
      'GET /c?limit=2&access_token=[redacted]',
    ],
    ['sig first in a query', 'GET /c?sig=0a1b2c&x=1', 'GET /c?sig=[redacted]&x=1'],
    [
      'a secret parameter in any letter case',
      '?X-Amz-Signature=ffee',
      '?X-Amz-Signature=[redacted]',
    ],
    [
      'a query held in JSON',
      '{"query":"token=t0k&limit=1"}',
      '{"query":"token=[redacted]&limit=1"}',
    ],
    ['a query escaped for XML', 'a?x=1&#38;key=v4lue"', 'a?x=1&#38;key=[redacted]"'],
    ['a URL-encoded query', '%3Fapi_key%3Dv4lue', '%3Fapi_key%3D[redacted]'],
    [
      'a key as a secret parameter, redacted once',
      `?key=${READ}&sig=${READ}`,
      '?key=[redacted readonly-key]&sig=[redacted readonly-key]',
    ],
    [
      'a parameter whose name ends like one',
      '?monkey=1&token_type=bearer',
      '?monkey=1&token_type=bearer',
    ],
  ])('%s', (_, text, want) => {
    expect(redact(text)).toBe(want);
  });

  it('redacts the longer of two keys where one holds the other', () => {
    const both = redactor([
      { label: 'api-key', value: 'abcd' },
      { label: 'readonly-key', value: 'abcd-efgh' },
    ]);
    expect(both('abcd-efgh abcd')).toBe('[redacted readonly-key] [redacted api-key]');
  });

  it('keeps a JSON report valid JSON and a JUnit report valid XML', () => {
    const json = JSON.stringify({ echo: `Bearer ${KEY} ${encodeURIComponent(KEY)}`, n: 1 });
    expect(JSON.parse(redact(json))).toEqual({
      echo: 'Bearer [redacted api-key] [redacted api-key]',
      n: 1,
    });
    const xml = `<a m="${escapeXml(`${KEY} ?sig=1&access_token=2`)}">${escapeXml(KEY)}</a>`;
    const parser = new SaxesParser();
    const seen: string[] = [];
    parser.on('opentag', (tag) => seen.push(String(tag.attributes.m)));
    parser.on('text', (text) => seen.push(text));
    parser.write(redact(xml)).close();
    expect(seen).toEqual([
      '[redacted api-key] ?sig=[redacted]&access_token=[redacted]',
      '[redacted api-key]',
    ]);
  });
});

describe('keysGiven', () => {
  it.each<[string, string[], NodeJS.ProcessEnv, Array<[string, string]>]>([
    ['an option and its value', ['--api-key', 'a1'], {}, [['api-key', 'a1']]],
    ['the = form', ['--readonly-key=r=1'], {}, [['readonly-key', 'r=1']]],
    ['a later key option', ['--audit-key', 'z'], {}, [['audit-key', 'z']]],
    ['no value: the next option is none', ['--api-key', '--level', 'spec'], {}, []],
    ['not a key option', ['--target', 'x.yaml', '--keyed', 'v'], {}, []],
    [
      'the environment',
      [],
      { ANSWERS_OTHER_ACCOUNT_KEY: 'o1', ANSWERS_BASE_URL: 'http://h', ANSWERS_API_KEY: '' },
      [['other-account-key', 'o1']],
    ],
  ])('%s', (_, argv, env, want) => {
    expect(keysGiven(argv, env).map((key) => [key.label, key.value])).toEqual(want);
  });
});

describe('control characters', () => {
  const name = 'a\x1b[2Jb\x07c\rd\x9b31me\x7ff\tg\nh';
  it('are shown as escapes in text, but tab and newline', () => {
    expect(visibleControls(name)).toBe('a\\x1b[2Jb\\x07c\\x0dd\\x9b31me\\x7ff\tg\nh');
  });
  it('are \\u escapes in JSON, the same value to a parser', () => {
    const text = jsonWithoutControls(JSON.stringify({ name }));
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/); // eslint-disable-line no-control-regex
    expect(JSON.parse(text)).toEqual({ name });
  });
  it('are U+FFFD in XML, which a strict parser reads', () => {
    const text = xmlWithoutControls(`<a>${escapeXml(name)}</a>`);
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/); // eslint-disable-line no-control-regex
    const parser = new SaxesParser();
    let read = '';
    parser.on('text', (t) => (read += t));
    parser.write(text).close();
    expect(read).toBe('a\uFFFD[2Jb\uFFFDc\rd\uFFFD31me\uFFFDf\tg\nh');
  });
});
