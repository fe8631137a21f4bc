/**
 * The JUnit report is XML 1.0 that a strict parser reads, whatever a check's name or failure says:
 * every character XML forbids (C0 controls but tab, newline and return; U+FFFE, U+FFFF; lone
 * surrogates) becomes U+FFFD, and everything else reads back exactly.
 * @note saxes is a strict XML 1.0 parser (jsdom's); fast-xml-parser's validator and
 * @xmldom/xmldom accept these characters, so they could not prove anything here.
 */
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { toJUnit } from '../../src/contract/report.ts';
import type { CheckResult } from '../../src/contract/result.ts';
import type { ContractReport } from '../../src/contract/runner.ts';

const REPLACED = '\uFFFD';

/** A report of one failed and one skipped check carrying `text` in their titles and reasons. */
function reportWith(text: string): ContractReport {
  const result = (outcome: 'fail' | 'skip'): CheckResult => ({
    id: `check-${outcome}`,
    title: `title ${text}`,
    level: 'spec',
    clauses: ['AUTH-1'],
    outcome,
    reason: `reason ${text}`,
    durationMs: 1,
  });
  const counts = { pass: 0, fail: 1, skip: 1 };
  return {
    baseUrl: 'http://127.0.0.1:4010/api/answers/v1',
    description: 'test',
    level: 'spec',
    runId: 'r1',
    destructive: false,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 2,
    results: [result('fail'), result('skip')],
    matrix: [],
    leftBehind: [],
    counts,
    levels: { spec: counts, profile: { pass: 0, fail: 0, skip: 0 } },
    sharedCauses: [],
    notRun: undefined,
    pushback: { waits: 0, waitedMs: 0, notWaited: 0 },
    settle: { ms: 0, polls: 0, maxLagMs: 0 },
    foreignUrls: [],
    concurrency: 1,
    requests: 2,
    verdict: 'failed',
    failed: true,
  };
}

/** Parses `xml` strictly; the attributes of every element, in document order. */
function parseStrict(xml: string): Array<{ name: string; attributes: Record<string, string> }> {
  const parser = new SaxesParser();
  const elements: Array<{ name: string; attributes: Record<string, string> }> = [];
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    elements.push({ name: tag.name, attributes: tag.attributes as Record<string, string> });
  });
  parser.write(xml).close();
  return elements;
}

/** What the parser reads back for `text` in the test case name and in the failure message. */
function readBack(text: string): { name: string; failure: string; skipped: string } {
  const elements = parseStrict(toJUnit(reportWith(text)));
  const attribute = (element: string, name: string) =>
    elements.find((e) => e.name === element)!.attributes[name]!;
  return {
    name: attribute('testcase', 'name'),
    failure: attribute('failure', 'message'),
    skipped: attribute('skipped', 'message'),
  };
}

const C0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));

describe('toJUnit', () => {
  it.each(
    C0.map((char) => ({
      char,
      code: char.charCodeAt(0),
      want: ['\t', '\n', '\r'].includes(char) ? char : REPLACED,
    })),
  )('reads back control character U+$code as the parser sees it', ({ char, want }) => {
    const got = readBack(`a${char}b`);
    expect(got).toEqual({
      name: `check-fail: title a${want}b [AUTH-1]`,
      failure: `reason a${want}b`,
      skipped: `reason a${want}b`,
    });
  });

  it.each([
    { given: 'lone high \uD800 end', want: `lone high ${REPLACED} end` },
    { given: 'lone low \uDC00 end', want: `lone low ${REPLACED} end` },
    { given: 'reversed \uDC00\uD800 pair', want: `reversed ${REPLACED}${REPLACED} pair` },
    { given: 'high at the end \uDBFF', want: `high at the end ${REPLACED}` },
    { given: 'nonchars \uFFFE\uFFFF', want: `nonchars ${REPLACED}${REPLACED}` },
    { given: 'a pair 😀 kept', want: 'a pair 😀 kept' },
    {
      given: 'U+FFFD itself \uFFFD, U+E000 \uE000, DEL \u007F',
      want: 'U+FFFD itself \uFFFD, U+E000 \uE000, DEL \u007F',
    },
    { given: `markup <a href="x">&amp;'</a>`, want: `markup <a href="x">&amp;'</a>` },
    { given: 'lines\r\n\tkept', want: 'lines\r\n\tkept' },
  ])('reads back $given as $want', ({ given, want }) => {
    expect(readBack(given)).toEqual({
      name: `check-fail: title ${want} [AUTH-1]`,
      failure: `reason ${want}`,
      skipped: `reason ${want}`,
    });
  });

  it('stays well formed with every control character and lone surrogates at once', () => {
    const everything = `${C0.join('')}\uD800\uDFFF\uFFFE\uFFFF\u007F`;
    const xml = toJUnit(reportWith(everything));
    expect(() => parseStrict(xml)).not.toThrow();
    // @note The forbidden characters, spelled as code points (not as a regular expression).
    const forbidden = [...xml].filter((c) => {
      const code = c.codePointAt(0)!;
      return (code < 0x20 && ![9, 10, 13].includes(code)) || code === 0xfffe || code === 0xffff;
    });
    expect(forbidden).toEqual([]);
    expect(parseStrict(xml).map((e) => e.name)).toEqual([
      'testsuites',
      'testsuite',
      'testcase',
      'failure',
      'testcase',
      'skipped',
    ]);
  });
});

// @note One JUnit writer for every command (src/contract/runner/junit.ts): before, the suite's
// report of a run that left data behind had no failing test case, and CI showed the job green.
it('fails a test case named clean-up for data the run left behind', () => {
  const report = { ...reportWith('x'), results: [], leftBehind: ['c7 (still listed)'] };
  const elements = parseStrict(toJUnit(report));
  expect(elements[0]!.attributes.failures).toBe('1');
  const cleanUp = elements.findIndex(
    (e) => e.name === 'testcase' && e.attributes.name === 'clean-up',
  );
  expect(cleanUp).toBeGreaterThan(0);
  expect(elements[cleanUp + 1]).toEqual({
    name: 'failure',
    attributes: { message: 'left behind: c7 (still listed)' },
  });
});
