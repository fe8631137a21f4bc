/**
 * Authentication of the independent server (spec §5 and §7): a key in `X-Answers-API-Key` or in
 * `Authorization: Bearer`, identifying an account and its permissions; every failure is a 401.
 * Precedence, left open by §5.4, is this server's own: `X-Answers-API-Key` wins when both are sent.
 */
import type { IncomingMessage } from 'node:http';
import type { VariantName } from './variants.ts';

/** A key the server issued. */
export interface KeyRecord {
  account: string;
  canWrite: boolean;
  active: boolean;
}

export interface Caller {
  account: string;
  canWrite: boolean;
}

/** Why a request is refused: a problem text, a numeric code and the status (401 but in a variant). */
export interface Refusal {
  status: number;
  problem: string;
  code: number;
}

const TOKEN = /^[\x21-\x7e]+$/;

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const refuse = (problem: string, code: number): Refusal => ({ status: 401, problem, code });

/**
 * The caller of a request, or why it is refused. `fallback` is the account the variants that
 * (wrongly) serve requests without a valid key use.
 */
export function authenticate(
  request: IncomingMessage,
  keys: ReadonlyMap<string, KeyRecord>,
  variant: VariantName | undefined,
  fallback: string,
): Caller | Refusal {
  const apiKey = header(request, 'x-answers-api-key');
  const authorization = header(request, 'authorization');
  if (apiKey === undefined && authorization === undefined) {
    if (variant === 'missing-key-200') return { account: fallback, canWrite: true };
    if (variant === 'missing-key-403')
      return { status: 403, problem: 'no API key was sent', code: 40 };
    return refuse('no API key: send X-Answers-API-Key or Authorization: Bearer', 11);
  }
  let key: string;
  const viaHeader = apiKey !== undefined;
  if (apiKey !== undefined) {
    if (!TOKEN.test(apiKey)) return refuse('X-Answers-API-Key must be one key', 12);
    if (variant === 'api-key-header-refused') return refuse('unsupported key header', 12);
    key = apiKey;
  } else {
    const value = authorization ?? '';
    const parts = /^(\S+) (\S+)$/.exec(value);
    if (variant === 'malformed-header-accepted') {
      key = value.trim().split(/\s+/).pop() ?? '';
    } else if (!parts || parts[1]!.toLowerCase() !== 'bearer' || !TOKEN.test(parts[2]!)) {
      return refuse('Authorization must be "Bearer <key>"', 12);
    } else {
      key = parts[2]!;
    }
    if (variant === 'bearer-refused') return refuse('unsupported authorization scheme', 12);
  }
  const record = keys.get(key);
  if (!record) {
    if (variant === 'unknown-key-accepted') return { account: fallback, canWrite: true };
    return refuse('this key is not known', 13);
  }
  const lax =
    variant === 'inactive-key-accepted' ||
    (variant === 'inactive-key-accepted-in-x-header' && viaHeader);
  if (!record.active && !lax) return refuse('this key is inactive', 14);
  return { account: record.account, canWrite: record.canWrite };
}

export function isRefusal(value: Caller | Refusal): value is Refusal {
  return 'problem' in value;
}
