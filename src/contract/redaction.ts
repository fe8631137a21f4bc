/**
 * What the contract commands print or write holds no secret and no raw control character,
 * however a target echoes what it was sent: pure functions that `output.ts`, the one sink of
 * every front-end, applies to each text it writes.
 */
import { escapeXml } from './runner/junit.ts';

/** A value never to be printed, and the name it is printed as: `[redacted api-key]`. */
export interface Secret {
  label: string;
  value: string;
}

/**
 * A shorter value is printed: it would stand for common words of the output (`--api-key k` of a
 * test), and a key that short guards nothing.
 */
const MIN_SECRET_LENGTH = 4;

/**
 * Query parameters that carry a credential by convention (OAuth, signed URLs of S3, Azure, GCS,
 * API keys): their values are never printed, whatever the URL.
 */
const SECRET_QUERY_PARAMETERS = [
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'auth',
  'sig',
  'signature',
  'key',
  'api_key',
  'apikey',
  'api-key',
  'client_secret',
  'secret',
  'password',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'x-goog-signature',
  'x-goog-credential',
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The ways a target can echo a value into what is printed: as it is, inside a JSON string (once,
 * or a body quoted inside a JSON report), URL-encoded, and each of those escaped for XML.
 */
function formsOf(value: string): string[] {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const forms = [
    value,
    json(value),
    json(json(value)),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
  ];
  return [...new Set([...forms, ...forms.map(escapeXml)])];
}

/**
 * `Bearer <token>` wherever it is written (a header quoted in an error body, JSON-escaped or
 * URL-encoded): a token holds a character other than a lowercase letter, so that prose ("a Bearer
 * challenge", `Bearer realm="api"`) reads as written.
 */
const BEARER =
  /\b([Bb][Ee][Aa][Rr][Ee][Rr])((?:\s|%20|\+|\\[tn])+)((?=[A-Za-z0-9\-._~+/]*[A-Z0-9\-._~+/])[A-Za-z0-9\-._~+/]+=*)/g;

/** A secret query parameter's value, after `?`, `&` (as written in text, JSON or XML) or a quote. */
const SECRET_QUERY = new RegExp(
  `(^|[?&;#"'\\s]|\\\\u0026|&#38;|&amp;|%3F|%26)(${SECRET_QUERY_PARAMETERS.map(escapeRegExp).join('|')})(=|%3D)(?!\\[redacted)([^&#;\\s"'\\\\<>]+)`,
  'gim',
);

/**
 * A function that redacts `secrets` from a text, in every form `formsOf` gives, and every Bearer
 * token and secret query parameter's value. Its replacements hold no character that JSON or XML
 * escapes, so a valid report stays valid.
 */
export function redactor(secrets: readonly Secret[]): (text: string) => string {
  const labels = new Map<string, string>();
  for (const { label, value } of secrets)
    if (value.length >= MIN_SECRET_LENGTH)
      for (const form of formsOf(value)) if (!labels.has(form)) labels.set(form, label);
  // @note The longest form first: a key that holds another is redacted whole.
  const forms = [...labels.keys()].sort((a, b) => b.length - a.length);
  const values = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join('|'), 'g') : undefined;
  return (text) => {
    let redacted = values
      ? text.replace(values, (form) => `[redacted ${labels.get(form)!}]`)
      : text;
    redacted = redacted.replace(BEARER, '$1$2[redacted token]');
    return redacted.replace(SECRET_QUERY, '$1$2$3[redacted]');
  };
}

/**
 * The keys a command line and its environment give: every option named `--…-key` (`--api-key`,
 * `--readonly-key`, any later one), in either form commander takes, and every `ANSWERS_…_KEY`
 * variable. Read from the arguments before any command parses them, so that even a usage error
 * cannot print one.
 */
export function keysGiven(argv: readonly string[], env: NodeJS.ProcessEnv): Secret[] {
  const keys: Secret[] = [];
  argv.forEach((arg, i) => {
    const option = /^--([a-z][a-z0-9-]*-key)(?:=(.*))?$/s.exec(arg);
    if (!option) return;
    const value = option[2] ?? argv[i + 1];
    if (value !== undefined && !(option[2] === undefined && value.startsWith('--')))
      keys.push({ label: option[1]!, value });
  });
  for (const [name, value] of Object.entries(env))
    if (/^ANSWERS_[A-Z0-9_]*KEY$/.test(name) && value)
      keys.push({ label: name.slice('ANSWERS_'.length).toLowerCase().replace(/_/g, '-'), value });
  return keys;
}

/** C0 controls but tab and newline, DEL, and C1 controls: what can steer a terminal. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/** Text for a terminal: every control character but tab and newline shown as `\x1b`. */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\x${hex(c)}`);
}

/**
 * JSON text with no raw control character: JSON.stringify escapes C0 but writes DEL and C1 as
 * they are; here they are `\u00XX` escapes, the same value to any parser.
 */
export function jsonWithoutControls(text: string): string {
  return text.replace(/[\x7f-\x9f]/g, (c) => `\\u00${hex(c)}`);
}

/**
 * XML text with no control character: those XML 1.0 forbids that `escapeXml` did not already
 * replace, and DEL and C1 (allowed, but they steer a terminal that shows the report), as U+FFFD.
 */
export function xmlWithoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g, '\uFFFD');
}
