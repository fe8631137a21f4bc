/**
 * `snapshot --anonymize`: the strings of a deployment's content, metadata and names replaced
 * word by word, deterministically from a seed, by text of the same length and script, so a state
 * made of private data can be shared. The same word (as the mock's search compares words) is
 * always replaced by the same word and two words never by the same one, so a search for a
 * replacement finds exactly the objects the original word found. Numbers, booleans, keys,
 * shapes, timestamps, digits and everything between words are kept, and {@link Anonymizer.kept}
 * says so for the command's report.
 */
import type { Faker, Randomizer } from '@faker-js/faker';
import { UsageError } from '../cli-options.ts';
import { fnv1a } from '../fnv1a.ts';

/** Replaces the words of strings for one seed: the same word always by the same word. */
export interface Anonymizer {
  /** `value` with each word that has a letter replaced; digits and what lies between words kept. */
  text(value: string): string;
  /** A deep copy of JSON `value`, every string value passed through {@link text}, keys kept. */
  json(value: unknown): unknown;
  /** What was met and kept as it was, in words, for the command's report. */
  readonly kept: ReadonlySet<string>;
}

/**
 * An anonymizer for `seed`: two with the same seed replace every word alike.
 * @note faker is loaded here, not imported at the top: it is an optional peer of the kit.
 */
export async function createAnonymizer(seed: number): Promise<Anonymizer> {
  const random = new WordRandom();
  return new WordAnonymizer(seed, await loadFaker(random), random);
}

/** An English faker drawing from `randomizer`, or an error that says how to install it. */
async function loadFaker(randomizer: Randomizer): Promise<Faker> {
  try {
    const { Faker, base, en } = await import('@faker-js/faker');
    return new Faker({ locale: [en, base], randomizer });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new UsageError(
        'snapshot --anonymize needs @faker-js/faker, an optional peer of answers-mock-kit: npm install --save-dev @faker-js/faker@10',
        { cause: error },
      );
    throw error;
  }
}

/**
 * A word as the mock's search reads it (src/core/search/search-index.ts, `words`): a run of
 * Unicode letters and digits in the lower-cased text.
 * @note Written again, not imported: the contract suite does not depend on the mock's core. The
 * unit test checks the two agree.
 */
const WORD = /[\p{L}\p{N}]+/gu;
const LETTER = /^\p{L}$/u;
const HAS_LETTER = /\p{L}/u;
const NOT_WORD = /[^\p{L}\p{N}]/u;
const FAKER_WORD = /^[a-z]+$/;
/** An RFC 3339 or ISO 8601 date-time (seconds and offset optional), as a whole string. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}(:?\d{2})?)?$/;
/**
 * `İ` is the one character whose lower case is two (`i` and a combining dot, which splits the
 * word in two for the search). No replacement of one character can split alike, so it is read
 * as `I`: the search property holds for the text with `İ` read as `I`.
 */
const DOTTED_CAPITAL_I = /\u0130/g;

/** How a word is replaced: first faker's English words (for Latin ones), then random letters. */
const FAKER_TRIES = 4;
/** After these attempts, letters are drawn from the whole script, for short words all taken. */
const WIDE_FROM = 32;
const ATTEMPTS = 64;

const KEPT = {
  keys: 'object keys',
  shapes: 'the shape of arrays and objects',
  scalars: 'numbers, booleans and null',
  timestamps: 'timestamps (RFC 3339 date-time strings)',
  digits: 'digits in text (numbers, and digits within words)',
  between: 'spaces, punctuation, symbols and emoji between words',
} as const;

class WordAnonymizer implements Anonymizer {
  readonly #seed: number;
  readonly #faker: Faker;
  readonly #random: WordRandom;
  /** Each word met (lower case) and its replacement (lower case). */
  readonly #replacements = new Map<string, string>();
  /** The replacements given, so no two words share one. */
  readonly #used = new Set<string>();
  /** Lengths faker has no word of: not asked again. */
  readonly #noFakerWord = new Set<number>();
  readonly #kept = new Set<string>();

  constructor(seed: number, faker: Faker, random: WordRandom) {
    this.#seed = seed;
    this.#faker = faker;
    this.#random = random;
  }

  get kept(): ReadonlySet<string> {
    return this.#kept;
  }

  readonly text = (value: string): string => {
    if (TIMESTAMP.test(value)) {
      this.#kept.add(KEPT.timestamps);
      return value;
    }
    if (NOT_WORD.test(value)) this.#kept.add(KEPT.between);
    // @note Lower-cased whole, as the search does (a final Σ lower-cases by its context); no
    // character but İ changes its length in lower case, so positions in both strings agree.
    const lower = value.replace(DOTTED_CAPITAL_I, 'I').toLowerCase();
    let out = '';
    let end = 0;
    for (const match of lower.matchAll(WORD)) {
      const start = match.index;
      out += value.slice(end, start);
      end = start + match[0].length;
      out += this.#word(value.slice(start, end), match[0]);
    }
    return out + value.slice(end);
  };

  readonly json = (value: unknown): unknown => {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) {
      this.#kept.add(KEPT.shapes);
      return value.map(this.json);
    }
    if (value !== null && typeof value === 'object') {
      this.#kept.add(KEPT.shapes);
      const entries = Object.entries(value);
      if (entries.length > 0) this.#kept.add(KEPT.keys);
      // @note fromEntries, not assignment: a `__proto__` key stays an own key of the copy.
      return Object.fromEntries(entries.map(([key, item]) => [key, this.json(item)]));
    }
    if (value === null || typeof value === 'number' || typeof value === 'boolean') {
      this.#kept.add(KEPT.scalars);
    }
    return value;
  };

  /** The replacement of one word, `original` as written and `key` as the search reads it. */
  #word(original: string, key: string): string {
    if (/\p{N}/u.test(key)) this.#kept.add(KEPT.digits);
    if (!HAS_LETTER.test(key)) return original;
    return withCaseOf([...original], [...key], [...this.#replacementOf(key)]);
  }

  /**
   * The replacement of the lower-case word `key`: drawn from a random stream of the seed and
   * the word alone, so it does not depend on the words met before, except when another word
   * took the replacement first (then the next draw of the stream is taken).
   */
  #replacementOf(key: string): string {
    const known = this.#replacements.get(key);
    if (known !== undefined) return known;
    const letters = [...key];
    this.#random.use(mulberry32(fnv1a(`${this.#seed}:${key}`)));
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const candidate = this.#draw(letters, attempt);
      if (candidate === undefined || candidate === key || this.#used.has(candidate)) continue;
      this.#replacements.set(key, candidate);
      this.#used.add(candidate);
      return candidate;
    }
    // @note The word itself is not in the message: it is the private text being hidden.
    throw new Error(
      `anonymize: every replacement of a ${letters.length}-character word in its script is taken`,
    );
  }

  /** One candidate replacement of `letters` (lower case), or undefined when faker has none. */
  #draw(letters: string[], attempt: number): string | undefined {
    if (attempt < FAKER_TRIES && letters.every(isLatinLetter)) {
      const word = this.#fakerWord(letters.length);
      if (word !== undefined) return word;
    }
    const wide = attempt >= WIDE_FROM;
    const next = this.#random.next;
    return letters.map((c) => (LETTER.test(c) ? pick(alphabetOf(c, wide), next()) : c)).join('');
  }

  /** An English word of `length` letters from faker, drawn from the word's stream. */
  #fakerWord(length: number): string | undefined {
    if (this.#noFakerWord.has(length)) return undefined;
    // @note 'closest' rather than the default 'fail': a word of another length tells that
    // faker has none of this one, without an exception.
    const word = this.#faker.word.sample({ length, strategy: 'closest' });
    if (word.length !== length) {
      this.#noFakerWord.add(length);
      return undefined;
    }
    return FAKER_WORD.test(word) ? word : undefined;
  }
}

/**
 * `replacement` written with the case of `original` letter by letter (`Refund`, `REFUND`,
 * `iPhone`), and the digits of `original` as they were written.
 */
function withCaseOf(original: string[], key: string[], replacement: string[]): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const letter = replacement[i]!;
    if (!LETTER.test(key[i]!)) out += original[i]!;
    else out += original[i] === key[i] ? letter : upperCase(letter);
  }
  return out;
}

/**
 * The upper case of `letter`, or `letter` when its upper case does not lower-case back to it
 * alone (`ß` is `SS`): the search must read the written replacement as the replacement.
 */
function upperCase(letter: string): string {
  const upper = letter.toUpperCase();
  return upper !== letter && upper.toLowerCase() === letter && [...upper].length === 1
    ? upper
    : letter;
}

/**
 * The faker randomizer, drawing from the stream of the word being replaced.
 * @note A randomizer of our own rather than `faker.seed()` per word: seeding faker's Mersenne
 * Twister costs more than drawing the word.
 */
class WordRandom implements Randomizer {
  #stream: () => number = mulberry32(0);

  readonly next = (): number => this.#stream();

  seed(seed: number | number[]): void {
    this.#stream = mulberry32(fnv1a(String(seed)));
  }

  use(stream: () => number): void {
    this.#stream = stream;
  }
}

/** mulberry32: a small seeded stream of numbers in [0, 1). */
function mulberry32(state: number): () => number {
  let a = state;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(letters: readonly string[], random: number): string {
  return letters[Math.floor(random * letters.length)]!;
}

/** A script's letters as a replacement draws them. */
interface Script {
  name: string;
  /** The letters a word of this script may contain (`ー` is Hiragana's and Katakana's). */
  has: RegExp;
  /** The script's own letters, of which a replacement is made. */
  owns: RegExp;
  /** The everyday letters, when the script has a few among many rare ones. */
  common?: Array<[number, number]>;
}

function script(name: string, common?: Array<[number, number]>): Script {
  return {
    name,
    has: new RegExp(`^\\p{Script_Extensions=${name}}$`, 'u'),
    owns: new RegExp(`^\\p{Script=${name}}$`, 'u'),
    common,
  };
}

/**
 * The scripts told apart, the most used first; a letter of any other is replaced by a letter of
 * its Unicode block (256 code points), which nearly always holds one script.
 * @note Greek without σ and ς: an upper-case Σ lower-cases to either by its context, so the
 * search could read another word than the replacement.
 */
const SCRIPTS: Script[] = [
  script('Latin', [[0x61, 0x7a]]),
  script('Cyrillic', [[0x430, 0x44f]]),
  script('Greek', [
    [0x3b1, 0x3c1],
    [0x3c4, 0x3c9],
  ]),
  script('Han', [[0x4e00, 0x9fff]]),
  script('Katakana', [[0x30a1, 0x30fa]]),
  script('Hiragana', [[0x3041, 0x3096]]),
  script('Hangul', [[0xac00, 0xd7a3]]),
  script('Arabic', [[0x621, 0x64a]]),
  script('Hebrew', [[0x5d0, 0x5ea]]),
  script('Devanagari', [[0x905, 0x939]]),
  script('Thai', [[0xe01, 0xe2e]]),
  ...'Armenian Georgian Bengali Gurmukhi Gujarati Oriya Tamil Telugu Kannada Malayalam Sinhala Lao Tibetan Myanmar Khmer Ethiopic'
    .split(' ')
    .map((name) => script(name)),
];

const LATIN = SCRIPTS[0]!;
const alphabets = new Map<string, readonly string[]>();

function isLatinLetter(c: string): boolean {
  return LATIN.owns.test(c) && LETTER.test(c);
}

/**
 * The letters a letter `c` of a word may be replaced by: its script's everyday letters, or with
 * `wide`, all of its script's letters in its plane (for short words whose replacements are all
 * taken).
 */
function alphabetOf(c: string, wide: boolean): readonly string[] {
  const code = c.codePointAt(0)!;
  const found = SCRIPTS.find((s) => s.has.test(c));
  const block = code & ~0xff;
  if (found === undefined) return lettersIn(`block ${block}`, [[block, block + 0xff]], LETTER);
  const plane = code & ~0xffff;
  if (wide) return lettersIn(`${found.name} ${plane}`, [[plane, plane + 0xffff]], found.owns);
  if (found.common) return lettersIn(found.name, found.common, found.owns);
  return lettersIn(`${found.name} ${block}`, [[block, block + 0xff]], found.owns);
}

/**
 * The letters of `ranges` that `owns` takes and that read as themselves in lower case (what the
 * search reads), σ and ς left out, and those with an upper case if any has one; remembered as
 * `name`.
 */
function lettersIn(name: string, ranges: Array<[number, number]>, owns: RegExp): readonly string[] {
  const known = alphabets.get(name);
  if (known) return known;
  const letters: string[] = [];
  for (const [from, to] of ranges) {
    for (let code = from; code <= to; code++) {
      const letter = String.fromCodePoint(code);
      if (
        owns.test(letter) &&
        LETTER.test(letter) &&
        letter.toLowerCase() === letter &&
        letter !== 'σ' &&
        letter !== 'ς'
      ) {
        letters.push(letter);
      }
    }
  }
  // @note In a script with case, a letter without an upper case (Armenian `ՠ`) would lose the
  // case of the letter it replaces: such letters are left out.
  const cased = letters.filter((letter) => upperCase(letter) !== letter);
  const alphabet = cased.length > 0 ? cased : letters;
  alphabets.set(name, alphabet);
  return alphabet;
}
