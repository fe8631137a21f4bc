import type { HeaderBag } from './http.ts';
import { findApiKey, type ApiKey, type Permission } from './api-key.ts';
import { problem, type ProblemCode } from './problem.ts';
import type { MockResponse } from './http.ts';

/** The outcome of authenticating a request. */
export type Authentication =
  | { ok: true; apiKey: ApiKey }
  | { ok: false; response: MockResponse; presentedKey?: string | undefined };

/**
 * A token as RFC 6750 §2.1 defines it (b64token), at most 512 characters.
 * @see docs/spec-gaps.md GAP-AUTH-FORM
 */
const TOKEN = /^[A-Za-z0-9\-._~+/]{1,512}=*$/;
const BEARER = /^bearer ([^ ]*)$/i;

type Parsed =
  { kind: 'absent' } | { kind: 'malformed'; reason: string } | { kind: 'key'; key: string };

/**
 * The one value of a header that may have been sent more than once. Adapters join repeated fields
 * with ", " (RFC 9110 §5.3) and a credential never contains a comma, so the parts are the repeats:
 * equal repeats are one value, different ones are `undefined`.
 * @see docs/spec-gaps.md GAP-AUTH-FORM
 */
function singleValue(value: string | null): string | null | undefined {
  if (value === null || !value.includes(',')) return value;
  const [first, ...rest] = value.split(',').map((part) => part.trim());
  return rest.every((part) => part === first) ? first! : undefined;
}

const REPEATED = (header: string): Parsed => ({
  kind: 'malformed',
  reason: `The ${header} header was sent more than once with different values.`,
});

function parseAuthorization(raw: string | null): Parsed {
  const value = singleValue(raw);
  if (value === undefined) return REPEATED('Authorization');
  if (value === null) return { kind: 'absent' };
  const match = BEARER.exec(value);
  if (!match) {
    return {
      kind: 'malformed',
      reason: 'The Authorization header must be "Bearer <API key>" with a single space.',
    };
  }
  return parseToken(match[1] ?? '', 'Authorization');
}

function parseToken(value: string, header: string): Parsed {
  if (!TOKEN.test(value)) {
    return {
      kind: 'malformed',
      reason: `The ${header} header must carry exactly one API key of 1-512 characters from A-Z a-z 0-9 - . _ ~ + /.`,
    };
  }
  return { kind: 'key', key: value };
}

/** RFC 6750 §3 challenge for every 401. @see docs/spec-gaps.md GAP-AUTH-CHALLENGE */
function challenge(error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope'): string {
  return error ? `Bearer realm="answers", error="${error}"` : 'Bearer realm="answers"';
}

function refuse(
  code: ProblemCode,
  detail: string,
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope',
  presentedKey?: string,
): Authentication {
  return {
    ok: false,
    presentedKey,
    response: problem(code, detail, { headers: { 'www-authenticate': challenge(error) } }),
  };
}

/**
 * Authenticates a request by its API key headers and checks the permission the operation needs.
 * Every failure is a 401 (the spec puts missing permission under 401 too).
 * @see spec §5, §7 (AUTH-1..5, ERR-401-1..5); docs/spec-gaps.md GAP-AUTH-PRECEDENCE
 */
export function authenticate(
  headers: HeaderBag,
  keys: readonly ApiKey[],
  permission: Permission,
): Authentication {
  const bearer = parseAuthorization(headers.get('authorization'));
  const headerValue = singleValue(headers.get('x-answers-api-key'));
  const apiKeyHeader: Parsed =
    headerValue === undefined
      ? REPEATED('X-Answers-API-Key')
      : headerValue === null
        ? { kind: 'absent' }
        : parseToken(headerValue, 'X-Answers-API-Key');

  if (bearer.kind === 'absent' && apiKeyHeader.kind === 'absent') {
    return refuse(
      'missing_credentials',
      'Send your API key as "Authorization: Bearer <key>" or "X-Answers-API-Key: <key>".',
    );
  }
  if (bearer.kind === 'malformed')
    return refuse('malformed_credentials', bearer.reason, 'invalid_request');
  if (apiKeyHeader.kind === 'malformed') {
    return refuse('malformed_credentials', apiKeyHeader.reason, 'invalid_request');
  }
  const presented = bearer.kind === 'key' ? bearer.key : (apiKeyHeader as { key: string }).key;
  if (bearer.kind === 'key' && apiKeyHeader.kind === 'key' && bearer.key !== apiKeyHeader.key) {
    return refuse(
      'conflicting_api_keys',
      'The Authorization and X-Answers-API-Key headers carry different keys; send one, or the same key in both.',
      'invalid_token',
      presented,
    );
  }

  const apiKey = findApiKey(keys, presented);
  if (!apiKey)
    return refuse('invalid_api_key', 'The API key is not valid.', 'invalid_token', presented);
  if (!apiKey.active) {
    return refuse(
      'inactive_api_key',
      'The API key is inactive. Generate a new key.',
      'invalid_token',
      presented,
    );
  }
  if (!apiKey.permissions.includes(permission)) {
    return refuse(
      'insufficient_permission',
      `The API key lacks the "${permission}" permission this operation needs.`,
      'insufficient_scope',
      presented,
    );
  }
  return { ok: true, apiKey };
}
