import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../src/contract/snapshot/anonymize.ts';
import { words } from '../../src/core/search/search-index.ts';

const SEED = 20261122;

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Arabic',
  'Hebrew',
  'Devanagari',
  'Thai',
  'Armenian',
].map((name) => ({ name, test: new RegExp(`^\\p{Script_Extensions=${name}}$`, 'u') }));

/** The scripts a letter is written in (`ー` in two), or for any other character, itself. */
function scriptsOf(c: string): string[] {
  if (!/\p{L}/u.test(c)) return [c];
  const found = SCRIPTS.filter((s) => s.test.test(c)).map((s) => s.name);
  return found.length > 0 ? found : ['another script'];
}

/** Whether each character of `got` is of a script of the character of `given` at its place. */
function sameScripts(given: string, got: string): boolean {
  const gotChars = [...got];
  return [...given].every((c, i) => scriptsOf(gotChars[i]!).some((s) => scriptsOf(c).includes(s)));
}

/** Each character's case: upper, lower, or none (digits, punctuation, letters without case). */
function cases(text: string): string[] {
  return [...text].map((c) =>
    c !== c.toLowerCase() ? 'upper' : c !== c.toUpperCase() ? 'lower' : c,
  );
}

describe('createAnonymizer: text', () => {
  it.each([
    { name: 'Latin', given: 'Refund requested for order' },
    { name: 'Latin with accents', given: 'café crème brûlée Straße' },
    { name: 'Cyrillic', given: 'Возврат средств по заказу' },
    { name: 'Greek', given: 'Επιστροφή χρημάτων ΟΔΟΣ' },
    { name: 'Han', given: '退款申请已提交' },
    { name: 'Japanese (Han, Hiragana, Katakana)', given: '東京タワーのチケット' },
    { name: 'Hangul', given: '환불 요청' },
    { name: 'Arabic', given: 'طلب استرداد' },
    { name: 'Hebrew', given: 'בקשת החזר' },
    { name: 'Devanagari', given: 'धनवापसी अनुरोध' },
    { name: 'Thai', given: 'ขอคืนเงิน' },
    { name: 'Armenian (no everyday letters listed)', given: 'Բարեւ աշխարհ' },
    { name: 'mixed scripts in one string', given: 'Order Заказ 注文 Παραγγελία #42!' },
  ])('keeps the length and the script of each character: $name', async ({ given }) => {
    const anonymizer = await createAnonymizer(SEED);
    const got = anonymizer.text(given);
    expect(got).not.toBe(given);
    expect([...got]).toHaveLength([...given].length);
    expect(sameScripts(given, got)).toBe(true);
  });

  it.each([
    { given: 'Refund', want: ['upper', 'lower', 'lower', 'lower', 'lower', 'lower'] },
    { given: 'REFUND', want: ['upper', 'upper', 'upper', 'upper', 'upper', 'upper'] },
    { given: 'refund', want: ['lower', 'lower', 'lower', 'lower', 'lower', 'lower'] },
    { given: 'iPhone', want: ['lower', 'upper', 'lower', 'lower', 'lower', 'lower'] },
    { given: 'Москва', want: ['upper', 'lower', 'lower', 'lower', 'lower', 'lower'] },
    { given: 'ΑΘΗΝΑ', want: ['upper', 'upper', 'upper', 'upper', 'upper'] },
    { given: 'Բարեւ', want: ['upper', 'lower', 'lower', 'lower', 'lower'] },
  ])('keeps the case of each letter of $given', async ({ given, want }) => {
    const anonymizer = await createAnonymizer(SEED);
    expect(cases(given)).toEqual(want);
    expect(cases(anonymizer.text(given))).toEqual(want);
  });

  it('replaces the same word by the same word in every string, whatever its case', async () => {
    const anonymizer = await createAnonymizer(SEED);
    const [first] = anonymizer.text('refund now').split(' ');
    const second = anonymizer.text('a REFUND').split(' ')[1];
    const third = anonymizer.text('Refund!').slice(0, 6);
    expect(second).toBe(first!.toUpperCase());
    expect(third).toBe(first![0]!.toUpperCase() + first!.slice(1));
  });

  it('never replaces two words by the same word, nor a word by itself', async () => {
    const anonymizer = await createAnonymizer(SEED);
    const latin = 'abcdefghijklmnopqrstuvwxyz';
    const given = [
      ...latin,
      ...[...latin].flatMap((a) => [...latin].map((b) => a + b)),
      ...[...latin].flatMap((a) =>
        [...latin].flatMap((b) => ['a', 'e', 'o'].map((c) => a + b + c)),
      ),
      ...'абвгдежзийклмнопрстуфхцчшщъыьэюя',
      ...'αβγδεζηθικλμνξοπρτυφχψω',
    ];
    const distinct = [...new Set(given)];
    const replacements = distinct.map((word) => anonymizer.text(word));
    expect(new Set(replacements).size).toBe(distinct.length);
    for (const [i, word] of distinct.entries()) expect(replacements[i]).not.toBe(word);
  });

  it.each([
    { name: 'digits, punctuation and emoji', given: 'Order #12345: 50% off! 🎉 (ok?)' },
    { name: 'digits within a word', given: 'abc123 covid19 4x4' },
    { name: 'digits of other scripts', given: 'رقم ٣٤٥ और १२३' },
    { name: 'spaces and line breaks', given: '  two\tspaces\n\nand lines  ' },
    { name: 'combining marks, which split words for the search', given: 'cafe\u0301 नमस्ते' },
  ])('keeps $name as they are', async ({ given }) => {
    const anonymizer = await createAnonymizer(SEED);
    const got = [...anonymizer.text(given)];
    [...given].forEach((c, i) => {
      if (!/\p{L}/u.test(c)) expect(got[i]).toBe(c);
      else expect(got[i]).toMatch(/^\p{L}$/u);
    });
  });

  it.each(['2026-01-01T00:00:00.000Z', '2026-01-01t10:20:30+02:00', '2026-01-01 10:20Z'])(
    'keeps the timestamp %s as it is',
    async (given) => {
      const anonymizer = await createAnonymizer(SEED);
      expect(anonymizer.text(given)).toBe(given);
    },
  );

  it('gives the same text for the same seed, whatever the order words are met in', async () => {
    const one = await createAnonymizer(SEED);
    const other = await createAnonymizer(SEED);
    expect(one.text('Refund the order, Ivan')).toBe(
      (other.text('Ivan'), other.text('order'), other.text('Refund the order, Ivan')),
    );
  });

  it('gives other text for another seed', async () => {
    const text = 'Refund requested for the broken kettle Заказ 注文';
    const one = (await createAnonymizer(1)).text(text).split(' ');
    const other = (await createAnonymizer(2)).text(text).split(' ');
    expect(one.filter((word, i) => word !== other[i]).length).toBeGreaterThanOrEqual(6);
  });

  it.each([
    'Refund requested for order 4411, please REFUND the Order!',
    'Москва и МОСКВА, ΟΔΟΣ και οδός',
    '東京タワーのチケット 2枚, 환불 요청',
    'abc123 x 4x4 free-text; ß and SS',
    '',
  ])(
    "is read by the mock's search as the replacements of the words, one for one: %s",
    async (given) => {
      const anonymizer = await createAnonymizer(SEED);
      const got = words(anonymizer.text(given));
      expect(got).toEqual(words(given).map((word) => anonymizer.text(word)));
    },
  );

  it('reads İ as I, the one letter whose lower case splits a word for the search', async () => {
    const anonymizer = await createAnonymizer(SEED);
    expect(words(anonymizer.text('İstanbul'))).toEqual([anonymizer.text('istanbul')]);
  });
});

describe('createAnonymizer: json', () => {
  it('keeps keys, numbers, booleans, null, shapes and timestamps, and replaces strings', async () => {
    const anonymizer = await createAnonymizer(SEED);
    const given = {
      title: 'Broken kettle',
      price: 12.5,
      stock: 0,
      active: true,
      archived: false,
      note: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      tags: ['refund', 'kettle', 42, ['nested']],
      owner: { name: 'Ivan Petrov', id: 'u-17' },
      empty: {},
      none: [],
    };
    const got = anonymizer.json(given) as typeof given;

    expect(Object.keys(got)).toEqual(Object.keys(given));
    expect(Object.keys(got.owner)).toEqual(['name', 'id']);
    expect(got).toMatchObject({
      price: 12.5,
      stock: 0,
      active: true,
      archived: false,
      note: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      empty: {},
      none: [],
    });
    expect(got.title).toBe(anonymizer.text('Broken kettle'));
    expect(got.title).not.toBe(given.title);
    expect(got.tags).toEqual([
      anonymizer.text('refund'),
      anonymizer.text('kettle'),
      42,
      [anonymizer.text('nested')],
    ]);
    expect(got.owner.id).toMatch(/^\p{L}-17$/u);
    expect(given.title).toBe('Broken kettle');
  });

  it('says what it kept as it was', async () => {
    const anonymizer = await createAnonymizer(SEED);
    anonymizer.json({ n: 1, at: '2026-01-01T00:00:00.000Z', text: ['Order 42!'] });
    expect([...anonymizer.kept].sort()).toEqual(
      [
        'digits in text (numbers, and digits within words)',
        'numbers, booleans and null',
        'object keys',
        'spaces, punctuation, symbols and emoji between words',
        'the shape of arrays and objects',
        'timestamps (RFC 3339 date-time strings)',
      ].sort(),
    );
  });

  it('keeps a __proto__ key as an own key of the copy', async () => {
    const anonymizer = await createAnonymizer(SEED);
    const got = anonymizer.json(JSON.parse('{"__proto__": {"x": 1}}')) as object;
    expect(Object.keys(got)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
  });
});
