/**
 * The one way the contract commands (the suite, `explore`, `replay`, `diff`, `init`, `sweep`) print and
 * write: stdout, stderr and report files alike. Every text is redacted here, at the sink, of the
 * keys the run was given, Bearer tokens and secret query parameters (redaction.ts), and cleared of
 * control characters: a message added later cannot print a key a target echoed.
 * `test/code/contract-output.node.test.ts` keeps every other module of the commands from writing.
 */
import { open, rename, rm, writeFile } from 'node:fs/promises';
import {
  jsonWithoutControls,
  redactor,
  visibleControls,
  xmlWithoutControls,
  type Secret,
} from './redaction.ts';

const secrets: Secret[] = [];
let redact = redactor(secrets);

/**
 * Adds values never to print, from here on: the keys of the command line (`runCli`), a key a HAR
 * presented (`replay`).
 */
export function keepSecrets(more: readonly Secret[]): void {
  const before = secrets.length;
  for (const secret of more)
    if (!secrets.some((known) => known.value === secret.value)) secrets.push(secret);
  if (secrets.length > before) redact = redactor(secrets);
}

/**
 * A value's strings and names redacted, at any depth (a report, before it is JSON), but for the
 * strings of `keep`: values that are public whatever a secret equals (the mock's dev keys).
 */
function redactedValue(value: unknown, keep: ReadonlySet<string> = new Set()): unknown {
  if (typeof value === 'string') return keep.has(value) ? value : redact(value);
  if (Array.isArray(value)) return value.map((item) => redactedValue(item, keep));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [redact(name), redactedValue(item, keep)]),
    );
  return value;
}

/** Prints to stdout. */
export function print(text: string): void {
  process.stdout.write(visibleControls(redact(text)));
}

/** Prints to stderr. */
export function printError(text: string): void {
  process.stderr.write(visibleControls(redact(text)));
}

/**
 * Prints a progress line to stderr over the one before it (a carriage return first): for a
 * terminal only. The return is the sink's own; the line is cleared of control characters as any.
 */
export function printProgress(line: string): void {
  process.stderr.write(`\r${visibleControls(redact(line))}`);
}

/** Writes a report as JSON (`--json`): redacted value by value, so that it stays valid JSON. */
export function writeJson(file: string, value: unknown): Promise<void> {
  return writeFile(file, `${jsonWithoutControls(JSON.stringify(redactedValue(value), null, 2))}\n`);
}

/**
 * Writes an XML report (`--junit`, and any later markup report) whose text was escaped with
 * `escapeXml`: the redactions hold no markup character, so it stays valid XML.
 */
export function writeXml(file: string, text: string): Promise<void> {
  return writeFile(file, xmlWithoutControls(redact(text)));
}

/**
 * Writes an HTML report (`--html`): drawn by `render` from the value redacted as `--json`'s is,
 * value by value, so that a key escaped into markup was already gone; the page is redacted again
 * at the sink, as every text. `render` escapes what it writes.
 */
export function writeHtml<T>(
  file: string,
  value: T,
  render: (redacted: T) => string,
): Promise<void> {
  return writeFile(file, xmlWithoutControls(redact(render(redactedValue(value) as T))));
}

/** Writes a text file for a person to read and edit (`init --out`). */
export function writeText(file: string, text: string): Promise<void> {
  return writeFile(file, visibleControls(redact(text)));
}

/**
 * Writes a file for the mock to load (`snapshot`'s state and its map) whole or not at all: to a
 * temporary file beside it, then renamed over it, so that a run stopped midway (Ctrl-C, a full
 * disk) leaves no half-written state behind for a developer to load.
 */
export async function writeJsonWhole(
  file: string,
  value: unknown,
  /** Strings written as they are: public values, such as the mock's own dev keys. */
  keep: ReadonlySet<string> = new Set(),
): Promise<void> {
  const temporary = `${file}.${process.pid}.partial`;
  try {
    await writeFile(
      temporary,
      `${jsonWithoutControls(JSON.stringify(redactedValue(value, keep)))}\n`,
    );
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** A JSON file written in pieces and then whole, or not at all ({@link openJsonWhole}). */
export interface JsonWhole {
  /** Appends `value` as JSON, redacted as every report is (but for the strings kept). */
  value(value: unknown): Promise<void>;
  /** Appends JSON punctuation or a member name the caller wrote: `{"objects":[`, `,`. */
  text(text: string): Promise<void>;
  /** Renames the file into place: only now does it exist under its name. */
  commit(): Promise<void>;
  /** Deletes what was written: nothing is left under any name. */
  abort(): Promise<void>;
}

/**
 * {@link writeJsonWhole} for a value too large to hold at once (a snapshot of a deployment's
 * 100,000 objects): its pieces appended to a temporary file beside `file` as they come, renamed
 * over `file` by `commit`, removed by `abort`.
 */
export async function openJsonWhole(
  file: string,
  keep: ReadonlySet<string> = new Set(),
): Promise<JsonWhole> {
  const temporary = `${file}.${process.pid}.partial`;
  const handle = await open(temporary, 'w');
  let closed = false;
  const close = async () => {
    if (!closed) await handle.close();
    closed = true;
  };
  return {
    value: async (value) => {
      await handle.write(jsonWithoutControls(JSON.stringify(redactedValue(value, keep))));
    },
    text: async (text) => {
      await handle.write(text);
    },
    commit: async () => {
      await handle.write('\n');
      await close();
      await rename(temporary, file);
    },
    abort: async () => {
      await close();
      await rm(temporary, { force: true });
    },
  };
}
