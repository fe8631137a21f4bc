/**
 * The bad-input catalogue: every case is a raw request and the exact answer expected from the
 * real HTTP server (status, media type, problem `code`). `{{NAME}}` placeholders in paths, header
 * values and bodies are filled at run time from ids and cursors the catalogue sets up (see
 * `CatalogueContext` in catalogue.node.test.ts). The method cases at the end are generated from
 * the paths of openapi.yaml.
 */
import { readFileSync } from 'node:fs';
import { gzipSync, deflateSync } from 'node:zlib';
import { parse } from 'yaml';
import { KEYS } from '../support/api.ts';

type Header = readonly [name: string, value: string | Uint8Array];

export interface CaseRequest {
  /** `fetch` (the default) or `raw`: byte for byte over node:net, for what fetch cannot send. */
  via?: 'fetch' | 'raw';
  method: string;
  /** The request target (path and query). Bytes for a raw target with non-ASCII bytes. */
  path: string | Uint8Array;
  headers?: Header[];
  body?: string | Uint8Array;
  /** raw: sends `body` chunked, without Content-Length. */
  chunked?: boolean;
  /** raw: streams this many bytes as a chunked body, without Content-Length. */
  streamBytes?: number;
  /** raw: the HTTP version of the request line. */
  version?: string;
  /** raw: no Host header. */
  noHost?: boolean;
}

interface CaseExpectation {
  /** The HTTP status; 0 means the server closes the connection without any response. */
  status: number;
  /** The response's media type without parameters; null: no Content-Type header at all. */
  contentType: string | null;
  /** The problem `code`; null for a success or for a bare answer of Node's HTTP parser. */
  code: string | null;
  /** Set on every case that expects success. */
  success?: true;
  /** Set when Node's HTTP parser answers before the mock sees the request (no body at all). */
  byNode?: true;
  /** `Allow` lists exactly these methods (any order). */
  allow?: string[];
  /** `WWW-Authenticate` equals this. */
  challenge?: string;
  /** The `id` of the first item of `data` (placeholders filled). */
  firstId?: string;
}

export interface CatalogueCase {
  name: string;
  request: CaseRequest;
  expect: CaseExpectation;
}

/**
 * The status of every problem code (docs/spec-gaps.md GAP-ERR-CODES), written out here on purpose:
 * an expectation read from the mock's own table could not catch a change to that table.
 */
const STATUS = {
  malformed_json: 400,
  validation_failed: 400,
  invalid_parameter: 400,
  invalid_cursor: 400,
  missing_credentials: 401,
  malformed_credentials: 401,
  invalid_api_key: 401,
  inactive_api_key: 401,
  conflicting_api_keys: 401,
  insufficient_permission: 401,
  not_found: 404,
  collection_not_found: 404,
  object_not_found: 404,
  method_not_allowed: 405,
  collection_name_taken: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
} as const;

export { KEYS };

export const API = '/api/answers/v1';
const MAX_BODY = 1_048_576;

const BEARER = (key: string): Header => ['Authorization', `Bearer ${key}`];
const FULL = BEARER(KEYS.full);
const JSON_TYPE: Header = ['Content-Type', 'application/json'];
const WRITE = [FULL, JSON_TYPE];

const CHALLENGE = 'Bearer realm="answers"';
const CHALLENGE_INVALID_REQUEST = 'Bearer realm="answers", error="invalid_request"';
const CHALLENGE_INVALID_TOKEN = 'Bearer realm="answers", error="invalid_token"';

function fail(code: keyof typeof STATUS, extra: Partial<CaseExpectation> = {}): CaseExpectation {
  return { status: STATUS[code], contentType: 'application/problem+json', code, ...extra };
}

function success(
  status = 200,
  contentType: string | null = 'application/json',
  extra: Partial<CaseExpectation> = {},
): CaseExpectation {
  return { status, contentType, code: null, success: true, ...extra };
}

/** An answer of Node's own HTTP parser: the request never reaches the mock. */
function byNode(status: number): CaseExpectation {
  return { status, contentType: null, code: null, byNode: true };
}

const concat = (...parts: Array<string | number[]>) =>
  Uint8Array.from(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)),
  );

const get = (path: string, headers: Header[] = [FULL]): CaseRequest => ({
  method: 'GET',
  path,
  headers,
});
const raw = (request: CaseRequest): CaseRequest => ({ ...request, via: 'raw' });
const send = (method: string, path: string, body: string | Uint8Array, headers = WRITE) => ({
  method,
  path,
  headers,
  body,
});

const COLLECTIONS = `${API}/collections`;
const COLLECTION = `${API}/collections/{{ACME_COL}}`;
const OBJECTS = `${API}/collections/{{ACME_COL}}/objects`;
const OBJECT = `${API}/collections/{{ACME_COL}}/objects/{{ACME_OBJ}}`;
const SEARCH = `${API}/search`;

/** `json` followed by spaces up to `bytes` bytes (ASCII only). */
const padded = (json: string, bytes: number) => json + ' '.repeat(bytes - json.length);

/** A content body nested `levels` deep in total (the body object is level 1). */
function nested(levels: number): string {
  const inner = levels - 1;
  return `{"content":${'{"a":'.repeat(inner - 1)}{"leaf":1}${'}'.repeat(inner - 1)}}`;
}

// ---------------------------------------------------------------------------------------------
// Authentication headers (GAP-AUTH-FORM, GAP-AUTH-PRECEDENCE, GAP-AUTH-CHALLENGE)
// ---------------------------------------------------------------------------------------------

const auth: CatalogueCase[] = [
  {
    name: 'auth: Bearer with a valid key succeeds',
    request: get(COLLECTIONS),
    expect: success(),
  },
  {
    name: 'auth: scheme in lower case ("bearer") succeeds (RFC 6750: scheme is case-insensitive)',
    request: get(COLLECTIONS, [['Authorization', `bearer ${KEYS.full}`]]),
    expect: success(),
  },
  {
    name: 'auth: scheme in upper case ("BEARER") succeeds',
    request: get(COLLECTIONS, [['Authorization', `BEARER ${KEYS.full}`]]),
    expect: success(),
  },
  {
    name: 'auth: scheme in mixed case ("bEaReR") succeeds',
    request: get(COLLECTIONS, [['Authorization', `bEaReR ${KEYS.full}`]]),
    expect: success(),
  },
  {
    name: 'auth: key in upper case is another key (keys are case-sensitive)',
    request: get(COLLECTIONS, [BEARER(KEYS.full.toUpperCase())]),
    expect: fail('invalid_api_key', { challenge: CHALLENGE_INVALID_TOKEN }),
  },
  {
    name: 'auth: key with one letter in another case is another key',
    request: get(COLLECTIONS, [BEARER('Answers_test_full_acme')]),
    expect: fail('invalid_api_key', { challenge: CHALLENGE_INVALID_TOKEN }),
  },
  {
    name: 'auth: X-Answers-API-Key with the key in upper case is another key',
    request: get(COLLECTIONS, [['X-Answers-API-Key', KEYS.full.toUpperCase()]]),
    expect: fail('invalid_api_key', { challenge: CHALLENGE_INVALID_TOKEN }),
  },
  {
    name: 'auth: no key header at all',
    request: get(COLLECTIONS, []),
    expect: fail('missing_credentials', { challenge: CHALLENGE }),
  },
  {
    name: 'auth: empty Authorization header',
    request: get(COLLECTIONS, [['Authorization', '']]),
    expect: fail('malformed_credentials', { challenge: CHALLENGE_INVALID_REQUEST }),
  },
  {
    name: 'auth: whitespace-only Authorization header (raw)',
    request: raw(get(COLLECTIONS, [['Authorization', '   \t ']])),
    expect: fail('malformed_credentials', { challenge: CHALLENGE_INVALID_REQUEST }),
  },
  {
    name: 'auth: empty X-Answers-API-Key header',
    request: get(COLLECTIONS, [['X-Answers-API-Key', '']]),
    expect: fail('malformed_credentials', { challenge: CHALLENGE_INVALID_REQUEST }),
  },
  {
    name: 'auth: whitespace-only X-Answers-API-Key header (raw)',
    request: raw(get(COLLECTIONS, [['X-Answers-API-Key', '    ']])),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: "Bearer" without a token',
    request: get(COLLECTIONS, [['Authorization', 'Bearer']]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: "Bearer " with a trailing space and no token (raw)',
    request: raw(get(COLLECTIONS, [['Authorization', 'Bearer ']])),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: two spaces between scheme and key',
    request: get(COLLECTIONS, [['Authorization', `Bearer  ${KEYS.full}`]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a tab between scheme and key (raw)',
    request: raw(get(COLLECTIONS, [['Authorization', `Bearer\t${KEYS.full}`]])),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: extra part after the key',
    request: get(COLLECTIONS, [['Authorization', `Bearer ${KEYS.full} extra`]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: two keys in one Authorization header',
    request: get(COLLECTIONS, [['Authorization', `Bearer ${KEYS.full} ${KEYS.globex}`]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: the key without a scheme',
    request: get(COLLECTIONS, [['Authorization', KEYS.full]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: Basic scheme carrying the key',
    request: get(COLLECTIONS, [
      ['Authorization', `Basic ${Buffer.from(`${KEYS.full}:`).toString('base64')}`],
    ]),
    expect: fail('malformed_credentials', { challenge: CHALLENGE_INVALID_REQUEST }),
  },
  {
    name: 'auth: "Token" scheme',
    request: get(COLLECTIONS, [['Authorization', `Token ${KEYS.full}`]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: "Bearer:" with a colon',
    request: get(COLLECTIONS, [['Authorization', `Bearer:${KEYS.full}`]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: X-Answers-API-Key carrying "Bearer <key>"',
    request: get(COLLECTIONS, [['X-Answers-API-Key', `Bearer ${KEYS.full}`]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a key of 512 characters (the longest well-formed) is simply unknown',
    request: get(COLLECTIONS, [BEARER('k'.repeat(512))]),
    expect: fail('invalid_api_key'),
  },
  {
    name: 'auth: a key of 513 characters is malformed',
    request: get(COLLECTIONS, [BEARER('k'.repeat(513))]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a very long key (2,000 characters) in Authorization',
    request: get(COLLECTIONS, [BEARER('a'.repeat(2_000))]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a very long key (2,000 characters) in X-Answers-API-Key',
    request: get(COLLECTIONS, [['X-Answers-API-Key', 'b'.repeat(2_000)]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a key with UTF-8 bytes (é) in Authorization (raw)',
    request: raw(get(COLLECTIONS, [['Authorization', concat('Bearer answers_t', [0xc3, 0xa9])]])),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a key with a lone latin-1 byte (0xE9) in Authorization (raw)',
    request: raw(get(COLLECTIONS, [['Authorization', concat('Bearer answers_', [0xe9], 'acme')]])),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a key with UTF-8 bytes in X-Answers-API-Key (raw)',
    request: raw(get(COLLECTIONS, [['X-Answers-API-Key', concat('answers_', [0xe2, 0x82, 0xac])]])),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a key with a percent-escape is not decoded',
    request: get(COLLECTIONS, [BEARER('answers%5Ftest_full_acme')]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a key with base64 padding is well formed but unknown',
    request: get(COLLECTIONS, [BEARER(`${KEYS.full}==`)]),
    expect: fail('invalid_api_key'),
  },
  {
    name: 'auth: key in the query string (api_key) is ignored',
    request: get(`${COLLECTIONS}?api_key=${KEYS.full}`, []),
    expect: fail('missing_credentials', { challenge: CHALLENGE }),
  },
  {
    name: 'auth: key in the query string (access_token, RFC 6750 §2.3) is ignored',
    request: get(`${COLLECTIONS}?access_token=${KEYS.full}`, []),
    expect: fail('missing_credentials'),
  },
  {
    name: 'auth: key in a cookie is ignored',
    request: get(COLLECTIONS, [['Cookie', `api_key=${KEYS.full}`]]),
    expect: fail('missing_credentials'),
  },
  {
    name: 'auth: key in Proxy-Authorization is ignored',
    request: get(COLLECTIONS, [['Proxy-Authorization', `Bearer ${KEYS.full}`]]),
    expect: fail('missing_credentials'),
  },
  {
    name: 'auth: X-Answers-API-Key with a valid key succeeds',
    request: get(COLLECTIONS, [['X-Answers-API-Key', KEYS.full]]),
    expect: success(),
  },
  {
    name: 'auth: the same key in both headers succeeds',
    request: get(COLLECTIONS, [FULL, ['X-Answers-API-Key', KEYS.full]]),
    expect: success(),
  },
  {
    name: 'auth: different valid keys in the two headers conflict',
    request: get(COLLECTIONS, [FULL, ['X-Answers-API-Key', KEYS.globex]]),
    expect: fail('conflicting_api_keys', { challenge: CHALLENGE_INVALID_TOKEN }),
  },
  {
    name: 'auth: an unknown Bearer key and a valid X-Answers-API-Key conflict',
    request: get(COLLECTIONS, [BEARER('answers_test_nobody'), ['X-Answers-API-Key', KEYS.full]]),
    expect: fail('conflicting_api_keys'),
  },
  {
    name: 'auth: a valid Bearer key and a malformed X-Answers-API-Key',
    request: get(COLLECTIONS, [FULL, ['X-Answers-API-Key', 'two words']]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a malformed Authorization and a valid X-Answers-API-Key',
    request: get(COLLECTIONS, [
      ['Authorization', `Basic ${KEYS.full}`],
      ['X-Answers-API-Key', KEYS.full],
    ]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: Authorization repeated with the same value (raw) is that value',
    request: raw(get(COLLECTIONS, [FULL, FULL])),
    expect: success(),
  },
  {
    name: 'auth: Authorization repeated with different values (raw)',
    request: raw(get(COLLECTIONS, [FULL, BEARER(KEYS.globex)])),
    expect: fail('malformed_credentials', { challenge: CHALLENGE_INVALID_REQUEST }),
  },
  {
    name: 'auth: Authorization repeated, once empty (raw)',
    request: raw(get(COLLECTIONS, [FULL, ['Authorization', '']])),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: X-Answers-API-Key repeated with the same value (raw) is that value',
    request: raw(
      get(COLLECTIONS, [
        ['X-Answers-API-Key', KEYS.full],
        ['X-Answers-API-Key', KEYS.full],
      ]),
    ),
    expect: success(),
  },
  {
    name: 'auth: X-Answers-API-Key repeated with different values (raw)',
    request: raw(
      get(COLLECTIONS, [
        ['X-Answers-API-Key', KEYS.full],
        ['X-Answers-API-Key', KEYS.globex],
      ]),
    ),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: a key with a comma inside one Authorization value',
    request: get(COLLECTIONS, [['Authorization', `Bearer ${KEYS.full},x`]]),
    expect: fail('malformed_credentials'),
  },
  {
    name: 'auth: an unknown key',
    request: get(COLLECTIONS, [BEARER('answers_test_full_nobody')]),
    expect: fail('invalid_api_key', { challenge: CHALLENGE_INVALID_TOKEN }),
  },
  {
    name: 'auth: an inactive key',
    request: get(COLLECTIONS, [BEARER(KEYS.inactive)]),
    expect: fail('inactive_api_key', { challenge: CHALLENGE_INVALID_TOKEN }),
  },
  {
    name: 'auth: a read-only key cannot create (401, not 403)',
    request: send('POST', COLLECTIONS, '{"name":"readonly attempt"}', [
      BEARER(KEYS.readonly),
      JSON_TYPE,
    ]),
    expect: fail('insufficient_permission', {
      challenge: 'Bearer realm="answers", error="insufficient_scope"',
    }),
  },
  {
    name: 'auth: authentication comes before parameter checks (no key, 129-char id)',
    request: get(`${API}/collections/${'c'.repeat(129)}`, []),
    expect: fail('missing_credentials'),
  },
  {
    name: "auth: authentication comes before lookups (no key, another account's id)",
    request: get(`${API}/collections/{{GLOBEX_COL}}`, []),
    expect: fail('missing_credentials'),
  },
  {
    name: 'auth: authentication comes before the size check (no key, 1 MiB + 1 body)',
    request: send('POST', COLLECTIONS, padded('{"name":"big"}', MAX_BODY + 1), [JSON_TYPE]),
    expect: fail('missing_credentials'),
  },
];

// ---------------------------------------------------------------------------------------------
// Identifiers in paths (GAP-IDS, GAP-ISOLATION)
// ---------------------------------------------------------------------------------------------

const ids: CatalogueCase[] = [
  {
    name: 'ids: an existing collection succeeds',
    request: get(COLLECTION),
    expect: success(),
  },
  {
    name: 'ids: an unknown collection id',
    request: get(`${API}/collections/col_aaaaaaaaaaaaaaaaaaaa`),
    expect: fail('collection_not_found'),
  },
  {
    name: "ids: another account's collection looks unknown",
    request: get(`${API}/collections/{{GLOBEX_COL}}`),
    expect: fail('collection_not_found'),
  },
  {
    name: "ids: another account's collection's objects look unknown",
    request: get(`${API}/collections/{{GLOBEX_COL}}/objects`),
    expect: fail('collection_not_found'),
  },
  {
    name: "ids: another account's object through its own collection",
    request: get(`${API}/collections/{{GLOBEX_COL}}/objects/{{GLOBEX_OBJ}}`),
    expect: fail('collection_not_found'),
  },
  {
    name: "ids: another account's object under one of ours",
    request: get(`${API}/collections/{{ACME_COL}}/objects/{{GLOBEX_OBJ}}`),
    expect: fail('object_not_found'),
  },
  {
    name: "ids: delete of another account's collection looks unknown and deletes nothing",
    request: { method: 'DELETE', path: `${API}/collections/{{GLOBEX_COL}}`, headers: [FULL] },
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: an object of our other collection under the wrong collection',
    request: get(`${API}/collections/{{ACME_COL}}/objects/{{ACME_OBJ2}}`),
    expect: fail('object_not_found'),
  },
  {
    name: 'ids: a deleted collection',
    request: get(`${API}/collections/{{DELETED_COL}}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: an unknown object id',
    request: get(`${OBJECTS}/obj_aaaaaaaaaaaaaaaaaaaa`),
    expect: fail('object_not_found'),
  },
  {
    name: 'ids: an encoded slash in a collection id (%2F)',
    request: get(`${API}/collections/{{ACME_COL}}%2Fobjects`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: an encoded traversal to the control API (..%2F..%2F__mock%2Freset)',
    request: get(`${API}/collections/..%2F..%2F__mock%2Freset`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: encoded dots (%2E%2E) as a collection id (raw; fetch would resolve them)',
    request: raw(get(`${API}/collections/%2E%2E`)),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: a literal ".." segment is not resolved (raw)',
    request: raw(get(`${API}/collections/..`)),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: a literal "." segment is not resolved (raw)',
    request: raw(get(`${API}/collections/.`)),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: ".." segments in the middle of an API path do not climb (raw)',
    request: raw(get(`${API}/collections/../collections`)),
    expect: fail('not_found'),
  },
  {
    name: 'ids: a NUL byte (%00) as a collection id',
    request: get(`${API}/collections/%00`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: a NUL byte (%00) after an object id',
    request: get(`${OBJECTS}/{{ACME_OBJ}}%00`),
    expect: fail('object_not_found'),
  },
  {
    name: 'ids: an id of 128 characters (the longest accepted) is simply unknown',
    request: get(`${API}/collections/${'c'.repeat(128)}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: a collection id of 129 characters',
    request: get(`${API}/collections/${'c'.repeat(129)}`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'ids: a collection id of 5,000 characters',
    request: get(`${API}/collections/${'c'.repeat(5_000)}`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'ids: an object id of 129 characters',
    request: get(`${OBJECTS}/${'o'.repeat(129)}`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'ids: an object id of 5,000 characters',
    request: get(`${OBJECTS}/${'o'.repeat(5_000)}`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'ids: length is counted after decoding (128 × %E2%82%AC: 1,152 bytes, 128 characters)',
    request: get(`${API}/collections/${'%E2%82%AC'.repeat(128)}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: 129 encoded characters (129 × %E2%82%AC)',
    request: get(`${API}/collections/${'%E2%82%AC'.repeat(129)}`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'ids: SQL-injection-looking id',
    request: get(`${API}/collections/${encodeURIComponent("' OR '1'='1' --")}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: NoSQL-operator-looking id',
    request: get(`${API}/collections/${encodeURIComponent('{"$ne":null}')}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: HTML/script id is answered as JSON',
    request: get(`${API}/collections/${encodeURIComponent('<script>alert(1)</script>')}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: template-injection-looking id',
    request: get(`${API}/collections/${encodeURIComponent('${jndi:ldap://x}{{7*7}}')}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: prototype-looking ids (__proto__)',
    request: get(`${API}/collections/__proto__`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: prototype-looking object id (constructor)',
    request: get(`${OBJECTS}/constructor`),
    expect: fail('object_not_found'),
  },
  {
    name: 'ids: an encoded percent sign (%25)',
    request: get(`${API}/collections/%25`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: a non-ASCII id, percent-encoded (%C3%A9)',
    request: get(`${API}/collections/%C3%A9`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'ids: an invalid percent-encoding (%E0%A4%A) names no route (raw)',
    request: raw(get(`${API}/collections/%E0%A4%A`)),
    expect: fail('not_found'),
  },
  {
    name: 'ids: a percent-escape of a byte that is not UTF-8 (%FF) names no route',
    request: raw(get(`${API}/collections/%FF`)),
    expect: fail('not_found'),
  },
  {
    name: 'ids: a lone "%" names no route (raw)',
    request: raw(get(`${API}/collections/%`)),
    expect: fail('not_found'),
  },
  {
    name: 'ids: raw UTF-8 bytes in the path are refused by Node',
    request: raw({
      method: 'GET',
      path: concat(`${API}/collections/`, [0xc3, 0xa9]),
      headers: [FULL],
    }),
    expect: byNode(400),
  },
  {
    name: 'ids: a raw control character in the path is refused by Node',
    request: raw(get(`${API}/collections/a\x01b`)),
    expect: byNode(400),
  },
  {
    name: 'ids: an empty id segment (trailing slash) names no route',
    request: get(`${API}/collections/`),
    expect: fail('not_found'),
  },
  {
    name: 'ids: an empty object id segment names no route',
    request: get(`${OBJECTS}/`),
    expect: fail('not_found'),
  },
  {
    name: 'ids: a doubled slash names no route (raw)',
    request: raw(get(`${API}//collections`)),
    expect: fail('not_found'),
  },
  {
    name: 'ids: path segments are case-sensitive (/Collections)',
    request: get(`${API}/Collections`),
    expect: fail('not_found'),
  },
  {
    name: 'ids: an unknown version prefix (/v2)',
    request: get('/v2/collections'),
    expect: fail('not_found'),
  },
];

// ---------------------------------------------------------------------------------------------
// Query values and cursors (GAP-PAGE-PARAMS)
// ---------------------------------------------------------------------------------------------

const query: CatalogueCase[] = [
  { name: 'query: limit=1 succeeds', request: get(`${COLLECTIONS}?limit=1`), expect: success() },
  {
    name: 'query: limit=100 succeeds',
    request: get(`${COLLECTIONS}?limit=100`),
    expect: success(),
  },
  {
    name: 'query: limit=0',
    request: get(`${COLLECTIONS}?limit=0`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=-1',
    request: get(`${COLLECTIONS}?limit=-1`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=101',
    request: get(`${COLLECTIONS}?limit=101`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=1.5 (fractional)',
    request: get(`${COLLECTIONS}?limit=1.5`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=abc (non-numeric)',
    request: get(`${COLLECTIONS}?limit=abc`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit= (empty)',
    request: get(`${COLLECTIONS}?limit=`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=99999999999999999999999 (huge)',
    request: get(`${COLLECTIONS}?limit=99999999999999999999999`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=1e400 (overflows to Infinity)',
    request: get(`${COLLECTIONS}?limit=1e400`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=NaN',
    request: get(`${COLLECTIONS}?limit=NaN`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=+5 (sign)',
    request: get(`${COLLECTIONS}?limit=%2B5`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=0x10 (hex)',
    request: get(`${COLLECTIONS}?limit=0x10`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=" 5" (padded)',
    request: get(`${COLLECTIONS}?limit=%205`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit=10.0 is the integer 10 (decided: accepted, as in a JSON body)',
    request: get(`${COLLECTIONS}?limit=10.0`),
    expect: success(),
  },
  {
    name: 'query: limit=1e1 is the integer 10 (decided: accepted, as in a JSON body)',
    request: get(`${COLLECTIONS}?limit=1e1`),
    expect: success(),
  },
  {
    name: 'query: limit repeated with different values',
    request: get(`${COLLECTIONS}?limit=1&limit=2`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit repeated with the same value',
    request: get(`${COLLECTIONS}?limit=5&limit=5`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: nested limit[a]=5 is another (unknown) parameter and is ignored',
    request: get(`${COLLECTIONS}?limit[a]=5`),
    expect: success(),
  },
  {
    name: 'query: limit[]=5 is another (unknown) parameter and is ignored',
    request: get(`${COLLECTIONS}?limit%5B%5D=5`),
    expect: success(),
  },
  {
    name: 'query: order[x]=desc is ignored',
    request: get(`${COLLECTIONS}?order[x]=desc`),
    expect: success(),
  },
  {
    name: 'query: unknown parameters are ignored',
    request: get(`${COLLECTIONS}?foo=bar&__proto__[polluted]=1&constructor[prototype][polluted]=1`),
    expect: success(),
  },
  {
    name: 'query: limit on the objects list, 0',
    request: get(`${OBJECTS}?limit=0`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit on the objects list, fractional',
    request: get(`${OBJECTS}?limit=2.5`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: limit on the objects list, repeated',
    request: get(`${OBJECTS}?limit=2&limit=3`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: order=desc succeeds',
    request: get(`${COLLECTIONS}?order=desc`),
    expect: success(),
  },
  {
    name: 'query: order=ASC (enum is case-sensitive)',
    request: get(`${COLLECTIONS}?order=ASC`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: order= (empty)',
    request: get(`${COLLECTIONS}?order=`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: order=random',
    request: get(`${COLLECTIONS}?order=random`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: order repeated',
    request: get(`${COLLECTIONS}?order=asc&order=desc`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: a genuine cursor continues the list',
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_ACME_ASC}}`),
    expect: success(200, 'application/json', { firstId: '{{ACME_COL2}}' }),
  },
  {
    name: 'query: a tampered cursor (one payload character changed)',
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_TAMPERED}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a cursor without its checksum',
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_UNSEALED}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a made-up cursor',
    request: get(`${COLLECTIONS}?cursor=abc`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: an empty cursor',
    request: get(`${COLLECTIONS}?cursor=`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a cursor that is only a dot and a checksum',
    request: get(`${COLLECTIONS}?cursor=.abc`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a cursor with a NUL byte',
    request: get(`${COLLECTIONS}?cursor=%00`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a cursor of non-base64 characters and a dot',
    request: get(`${COLLECTIONS}?cursor=${encodeURIComponent('!!!*.x')}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a cursor of 1,025 characters is a parameter error',
    request: get(`${COLLECTIONS}?cursor=${'A'.repeat(1_025)}`),
    expect: fail('invalid_parameter'),
  },
  {
    name: 'query: a cursor given twice',
    request: get(`${COLLECTIONS}?cursor={{CUR_ACME_ASC}}&cursor={{CUR_ACME_ASC}}`),
    expect: fail('invalid_parameter'),
  },
  {
    name: "query: another account's cursor (foreign)",
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_GLOBEX}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: "query: our cursor used by another account's key",
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_ACME_ASC}}`, [BEARER(KEYS.globex)]),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a cursor of the same account, read-only key (same account: accepted)',
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_ACME_ASC}}`, [BEARER(KEYS.readonly)]),
    expect: success(200, 'application/json', { firstId: '{{ACME_COL2}}' }),
  },
  {
    name: 'query: an ascending cursor used with order=desc',
    request: get(`${COLLECTIONS}?limit=1&order=desc&cursor={{CUR_ACME_ASC}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a descending cursor used without order (asc)',
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_ACME_DESC}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: "query: a collection list's cursor on an objects list",
    request: get(`${OBJECTS}?limit=1&cursor={{CUR_ACME_ASC}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: "query: an objects list's cursor on the collection list",
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_OBJECTS}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: "query: one collection's objects cursor on another collection's objects",
    request: get(`${API}/collections/{{ACME_COL2}}/objects?limit=1&cursor={{CUR_OBJECTS}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a search cursor on a list',
    request: get(`${COLLECTIONS}?cursor={{CUR_SEARCH}}`),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'query: a stale cursor (its item deleted since) keeps working, ascending',
    request: get(`${API}/collections/{{STALE_COL}}/objects?limit=2&cursor={{CUR_STALE_ASC}}`),
    expect: success(200, 'application/json', { firstId: '{{STALE_ASC_NEXT}}' }),
  },
  {
    name: 'query: a stale cursor (its item deleted since) keeps working, descending',
    request: get(
      `${API}/collections/{{STALE_COL}}/objects?limit=2&order=desc&cursor={{CUR_STALE_DESC}}`,
    ),
    expect: success(200, 'application/json', { firstId: '{{STALE_DESC_NEXT}}' }),
  },
  {
    name: 'query: a stale collection-list cursor (its collection deleted since) keeps working',
    request: get(`${COLLECTIONS}?limit=1&cursor={{CUR_STALE_COLL}}`),
    expect: success(200, 'application/json', { firstId: '{{STALE_COLL_NEXT}}' }),
  },
  {
    name: 'query: a cursor of a deleted collection’s objects gets the collection’s 404',
    request: get(`${API}/collections/{{DELETED_COL}}/objects?cursor={{CUR_STALE_ASC}}`),
    expect: fail('collection_not_found'),
  },
  {
    name: 'query: a key in the query string next to a valid header is ignored',
    request: get(`${COLLECTIONS}?api_key=${KEYS.globex}`),
    expect: success(200, 'application/json', { firstId: '{{ACME_COL}}' }),
  },
];

// ---------------------------------------------------------------------------------------------
// Request bodies (GAP-MEDIA, GAP-BODY-FIELDS, GAP-LIMIT-SIZE)
// ---------------------------------------------------------------------------------------------

const body: CatalogueCase[] = [
  {
    name: 'body: a valid create succeeds',
    request: send('POST', COLLECTIONS, '{"name":"catalogue ok"}'),
    expect: success(201),
  },
  {
    name: 'body: malformed JSON (truncated)',
    request: send('POST', COLLECTIONS, '{"name":'),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: malformed JSON (single quotes)',
    request: send('POST', COLLECTIONS, "{'name':'x'}"),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: malformed JSON (trailing comma)',
    request: send('POST', COLLECTIONS, '{"name":"x",}'),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: malformed JSON (NaN literal)',
    request: send('POST', COLLECTIONS, '{"name":"x","metadata":{"n":NaN}}'),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: malformed JSON (two documents)',
    request: send('POST', COLLECTIONS, '{"name":"x"}{"name":"y"}'),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: malformed JSON (comment)',
    request: send('POST', COLLECTIONS, '{"name":"x" /* c */}'),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: top-level array',
    request: send('POST', COLLECTIONS, '[{"name":"x"}]'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: top-level string',
    request: send('POST', COLLECTIONS, '"x"'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: top-level number',
    request: send('POST', COLLECTIONS, '42'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: top-level null',
    request: send('POST', COLLECTIONS, 'null'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: empty body with a JSON content type',
    request: send('POST', COLLECTIONS, ''),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: whitespace-only body',
    request: send('POST', COLLECTIONS, ' \n\t '),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: no Content-Type (raw)',
    request: raw(send('POST', COLLECTIONS, '{"name":"no type"}', [FULL])),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: text/plain',
    request: send('POST', COLLECTIONS, '{"name":"plain"}', [FULL, ['Content-Type', 'text/plain']]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: application/x-www-form-urlencoded',
    request: send('POST', COLLECTIONS, 'name=form', [
      FULL,
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: multipart/form-data',
    request: send('POST', COLLECTIONS, '--b\r\n\r\n{"name":"m"}\r\n--b--', [
      FULL,
      ['Content-Type', 'multipart/form-data; boundary=b'],
    ]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: application/jsonx (a longer media type)',
    request: send('POST', COLLECTIONS, '{"name":"jsonx"}', [
      FULL,
      ['Content-Type', 'application/jsonx'],
    ]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: application/merge-patch+json on a create',
    request: send('POST', COLLECTIONS, '{"name":"merge"}', [
      FULL,
      ['Content-Type', 'application/merge-patch+json'],
    ]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: application/merge-patch+json on an object PATCH succeeds',
    request: send('PATCH', OBJECT, '{"content":{"catalogue":"merged"}}', [
      FULL,
      ['Content-Type', 'application/merge-patch+json'],
    ]),
    expect: success(),
  },
  {
    name: 'body: Content-Type repeated (raw) is not one media type',
    request: raw(send('POST', COLLECTIONS, '{"name":"twice typed"}', [FULL, JSON_TYPE, JSON_TYPE])),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: media type in upper case succeeds',
    request: send('POST', COLLECTIONS, '{"name":"upper type"}', [
      FULL,
      ['Content-Type', 'APPLICATION/JSON'],
    ]),
    expect: success(201),
  },
  {
    name: 'body: charset=utf-8 succeeds',
    request: send('POST', COLLECTIONS, '{"name":"charset utf-8 é"}', [
      FULL,
      ['Content-Type', 'application/json; charset=utf-8'],
    ]),
    expect: success(201),
  },
  {
    name: 'body: charset="UTF-8" quoted and in upper case succeeds',
    request: send('POST', COLLECTIONS, '{"name":"charset quoted"}', [
      FULL,
      ['Content-Type', 'application/json;charset="UTF-8"'],
    ]),
    expect: success(201),
  },
  {
    name: 'body: charset=iso-8859-1 is refused, never mis-decoded',
    request: send('POST', COLLECTIONS, '{"name":"latin"}', [
      FULL,
      ['Content-Type', 'application/json; charset=iso-8859-1'],
    ]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: charset=utf-16 is refused',
    request: send('POST', COLLECTIONS, '{"name":"utf16"}', [
      FULL,
      ['Content-Type', 'application/json; charset=utf-16'],
    ]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: Content-Encoding gzip (decided: 415, send bodies uncompressed) (raw)',
    request: raw(
      send('POST', COLLECTIONS, gzipSync('{"name":"gzipped"}'), [
        ...WRITE,
        ['Content-Encoding', 'gzip'],
      ]),
    ),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: Content-Encoding deflate (raw)',
    request: raw(
      send('POST', COLLECTIONS, deflateSync('{"name":"deflated"}'), [
        ...WRITE,
        ['Content-Encoding', 'deflate'],
      ]),
    ),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: Content-Encoding br with plain bytes',
    request: send('POST', COLLECTIONS, '{"name":"br"}', [...WRITE, ['Content-Encoding', 'br']]),
    expect: fail('unsupported_media_type'),
  },
  {
    name: 'body: Content-Encoding identity succeeds',
    request: send('POST', COLLECTIONS, '{"name":"identity"}', [
      ...WRITE,
      ['Content-Encoding', 'identity'],
    ]),
    expect: success(201),
  },
  {
    name: 'body: exactly 1 MiB (JSON padded with spaces) succeeds',
    request: send('POST', COLLECTIONS, padded('{"name":"one mebibyte"}', MAX_BODY)),
    expect: success(201),
  },
  {
    name: 'body: 1 MiB + 1 byte',
    request: send('POST', COLLECTIONS, padded('{"name":"too big"}', MAX_BODY + 1)),
    expect: fail('payload_too_large'),
  },
  {
    name: 'body: 1 MiB + 1 byte of text/plain is 413 before 415 (size first)',
    request: send('POST', COLLECTIONS, 'x'.repeat(MAX_BODY + 1), [
      FULL,
      ['Content-Type', 'text/plain'],
    ]),
    expect: fail('payload_too_large'),
  },
  {
    name: 'body: 50 MiB streamed chunked without Content-Length (raw)',
    request: raw({
      method: 'POST',
      path: COLLECTIONS,
      headers: WRITE,
      streamBytes: 50 * MAX_BODY,
    }),
    expect: fail('payload_too_large'),
  },
  {
    name: 'body: a small chunked body without Content-Length succeeds (raw)',
    request: raw({ ...send('POST', COLLECTIONS, '{"name":"chunked"}'), chunked: true }),
    expect: success(201),
  },
  {
    name: 'body: a body on a GET is ignored (raw)',
    request: raw({
      method: 'GET',
      path: `${COLLECTIONS}?limit=1`,
      headers: [FULL, ['Content-Type', 'text/plain']],
      body: 'ignored',
    }),
    expect: success(),
  },
  {
    name: 'body: invalid UTF-8 bytes inside a string',
    request: send('POST', COLLECTIONS, concat('{"name":"a', [0xff, 0xfe], '"}')),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: an encoded UTF-16 surrogate (CESU-8 bytes ED A0 80)',
    request: send('POST', COLLECTIONS, concat('{"name":"', [0xed, 0xa0, 0x80], '"}')),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: an overlong UTF-8 encoding of "/" (C0 AF)',
    request: send('POST', COLLECTIONS, concat('{"name":"', [0xc0, 0xaf], '"}')),
    expect: fail('malformed_json'),
  },
  {
    name: 'body: a UTF-8 byte order mark before the JSON is allowed',
    request: send('POST', COLLECTIONS, concat([0xef, 0xbb, 0xbf], '{"name":"with bom"}')),
    expect: success(201),
  },
  {
    name: 'body: a \\u0000 escape inside a string is data',
    request: send('POST', COLLECTIONS, '{"name":"nul \\u0000 inside"}'),
    expect: success(201),
  },
  {
    name: 'body: a lone surrogate escape (\\ud800) inside a string is data',
    request: send('POST', COLLECTIONS, '{"name":"lone \\ud800 surrogate"}'),
    expect: success(201),
  },
  {
    name: 'body: a duplicate member (the last one wins, as in JSON.parse)',
    request: send('POST', COLLECTIONS, '{"name":"dup first","name":"dup last"}'),
    expect: success(201),
  },
  {
    name: 'body: a name already taken',
    request: send('POST', COLLECTIONS, '{"name":"catalogue ok"}'),
    expect: fail('collection_name_taken'),
  },
  {
    name: 'body: an empty name',
    request: send('POST', COLLECTIONS, '{"name":""}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: a name of 101 characters',
    request: send('POST', COLLECTIONS, JSON.stringify({ name: 'n'.repeat(101) })),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: a name that is a number',
    request: send('POST', COLLECTIONS, '{"name":42}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: metadata that is an array',
    request: send('POST', COLLECTIONS, '{"name":"meta array","metadata":[]}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: metadata with 51 keys',
    request: send(
      'POST',
      COLLECTIONS,
      JSON.stringify({
        name: 'meta 51',
        metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
      }),
    ),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: an unknown field',
    request: send('POST', COLLECTIONS, '{"name":"unknown field","color":"red"}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: a client-sent system field (id)',
    request: send('POST', COLLECTIONS, '{"name":"with id","id":"col_aaaaaaaaaaaaaaaaaaaa"}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: a client-sent system field (created_at)',
    request: send(
      'POST',
      COLLECTIONS,
      '{"name":"with date","created_at":"2020-01-01T00:00:00.000Z"}',
    ),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: a client-sent object system field (version)',
    request: send('POST', OBJECTS, '{"content":{},"version":7}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: an update with no field',
    request: send('PATCH', COLLECTION, '{}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: object content that is an array',
    request: send('POST', OBJECTS, '{"content":[]}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: object content missing',
    request: send('POST', OBJECTS, '{}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: PUT of an object that does not exist never creates it',
    request: send('PUT', `${OBJECTS}/obj_aaaaaaaaaaaaaaaaaaaa`, '{"content":{}}'),
    expect: fail('object_not_found'),
  },
  {
    name: 'body: "__proto__" as a top-level field is an unknown field',
    request: send('POST', COLLECTIONS, '{"name":"proto top","__proto__":{"polluted":true}}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: "constructor.prototype" as a top-level field is an unknown field',
    request: send(
      'POST',
      COLLECTIONS,
      '{"name":"ctor top","constructor":{"prototype":{"polluted":true}}}',
    ),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: "__proto__" inside metadata is stored as data',
    request: send(
      'POST',
      COLLECTIONS,
      '{"name":"proto meta","metadata":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}',
    ),
    expect: success(201),
  },
  {
    name: 'body: "__proto__" inside content is stored as data',
    request: send('POST', OBJECTS, '{"content":{"__proto__":{"polluted":true,"isAdmin":true}}}'),
    expect: success(201),
  },
  {
    name: 'body: "constructor.prototype" inside content is stored as data',
    request: send('POST', OBJECTS, '{"content":{"constructor":{"prototype":{"polluted":true}}}}'),
    expect: success(201),
  },
  {
    name: 'body: a merge patch with "__proto__" stays a member',
    request: send('PATCH', OBJECT, '{"content":{"__proto__":{"polluted":true}}}'),
    expect: success(),
  },
  {
    name: 'body: a merge patch with "constructor.prototype" stays a member',
    request: send('PATCH', OBJECT, '{"content":{"constructor":{"prototype":{"polluted":true}}}}'),
    expect: success(),
  },
  {
    name: 'body: a collection update with "__proto__" in metadata',
    request: send('PATCH', COLLECTION, '{"metadata":{"__proto__":{"polluted":true}}}'),
    expect: success(),
  },
  {
    name: 'body: a search with "__proto__" is an unknown field',
    request: send('POST', SEARCH, '{"query":"en","__proto__":{"limit":1}}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: content nested 64 levels (the limit) succeeds',
    request: send('POST', OBJECTS, nested(64)),
    expect: success(201),
  },
  {
    name: 'body: content nested 65 levels',
    request: send('POST', OBJECTS, nested(65)),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: content nested 5,000 levels (used to be a 500 and a half-created object)',
    request: send('POST', OBJECTS, nested(5_000)),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: arrays nested 100,000 levels',
    request: send(
      'POST',
      OBJECTS,
      `{"content":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
    ),
    expect: fail('validation_failed'),
  },
  {
    name: 'body: a deeply nested merge patch',
    request: send('PATCH', OBJECT, nested(3_000)),
    expect: fail('validation_failed'),
  },
];

// ---------------------------------------------------------------------------------------------
// Search bodies (GAP-SEARCH-REQ)
// ---------------------------------------------------------------------------------------------

const search: CatalogueCase[] = [
  {
    name: 'search: a valid search succeeds',
    request: send('POST', SEARCH, '{"query":"en","limit":1}'),
    expect: success(),
  },
  {
    name: 'search: its cursor continues the same search',
    request: send('POST', SEARCH, '{"query":"en","limit":1,"cursor":"{{CUR_SEARCH}}"}'),
    expect: success(),
  },
  {
    name: 'search: its cursor with another query is foreign',
    request: send('POST', SEARCH, '{"query":"support","limit":1,"cursor":"{{CUR_SEARCH}}"}'),
    expect: fail('invalid_cursor'),
  },
  {
    name: "search: another account's search cursor",
    request: send('POST', SEARCH, '{"query":"en","limit":1,"cursor":"{{CUR_SEARCH}}"}', [
      BEARER(KEYS.globex),
      JSON_TYPE,
    ]),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'search: a list cursor in a search',
    request: send('POST', SEARCH, '{"query":"en","cursor":"{{CUR_ACME_ASC}}"}'),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'search: a tampered cursor',
    request: send('POST', SEARCH, '{"query":"en","cursor":"{{CUR_TAMPERED}}"}'),
    expect: fail('invalid_cursor'),
  },
  {
    name: 'search: limit 0',
    request: send('POST', SEARCH, '{"query":"en","limit":0}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: limit -1',
    request: send('POST', SEARCH, '{"query":"en","limit":-1}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: limit 1.5',
    request: send('POST', SEARCH, '{"query":"en","limit":1.5}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: limit as a string',
    request: send('POST', SEARCH, '{"query":"en","limit":"5"}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: limit 1e9',
    request: send('POST', SEARCH, '{"query":"en","limit":1e9}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: limit null',
    request: send('POST', SEARCH, '{"query":"en","limit":null}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: an empty query',
    request: send('POST', SEARCH, '{"query":""}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: a query without any word',
    request: send('POST', SEARCH, '{"query":"!!! ... ???"}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: a query of 513 characters',
    request: send('POST', SEARCH, JSON.stringify({ query: 'q'.repeat(513) })),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: a query that is an array',
    request: send('POST', SEARCH, '{"query":["en"]}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: no query',
    request: send('POST', SEARCH, '{"limit":5}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: an empty collection_ids',
    request: send('POST', SEARCH, '{"query":"en","collection_ids":[]}'),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: duplicate collection_ids',
    request: send(
      'POST',
      SEARCH,
      '{"query":"en","collection_ids":["{{ACME_COL}}","{{ACME_COL}}"]}',
    ),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: a collection id of 129 characters',
    request: send(
      'POST',
      SEARCH,
      JSON.stringify({ query: 'en', collection_ids: ['c'.repeat(129)] }),
    ),
    expect: fail('validation_failed'),
  },
  {
    name: 'search: an unknown collection id',
    request: send('POST', SEARCH, '{"query":"en","collection_ids":["col_aaaaaaaaaaaaaaaaaaaa"]}'),
    expect: fail('collection_not_found'),
  },
  {
    name: "search: another account's collection id looks unknown",
    request: send('POST', SEARCH, '{"query":"en","collection_ids":["{{GLOBEX_COL}}"]}'),
    expect: fail('collection_not_found'),
  },
  {
    name: 'search: a read-only key may search',
    request: send('POST', SEARCH, '{"query":"en"}', [BEARER(KEYS.readonly), JSON_TYPE]),
    expect: success(),
  },
];

// ---------------------------------------------------------------------------------------------
// Protocol oddities, sent raw (what Node's parser does, and what reaches the mock)
// ---------------------------------------------------------------------------------------------

const protocol: CatalogueCase[] = [
  {
    name: 'protocol: absolute-form target (RFC 9112 §3.2.2: servers must accept it) (raw)',
    request: raw(get(`http://elsewhere.test${COLLECTIONS}`)),
    expect: success(),
  },
  {
    name: 'protocol: absolute-form target naming no route (raw)',
    request: raw(get('http://elsewhere.test/etc/passwd')),
    expect: fail('not_found'),
  },
  {
    name: 'protocol: asterisk-form target on GET (raw)',
    request: raw(get('*')),
    expect: fail('not_found'),
  },
  {
    name: 'protocol: an HTTP/1.0 request without Host (raw)',
    request: raw({ ...get(COLLECTIONS), version: 'HTTP/1.0', noHost: true }),
    expect: success(),
  },
  {
    name: 'protocol: an HTTP/1.1 request without Host is refused by Node (raw)',
    request: raw({ ...get(COLLECTIONS), noHost: true }),
    expect: byNode(400),
  },
  {
    name: 'protocol: an unknown HTTP version (HTTP/1.2) is refused by Node (raw)',
    request: raw({ ...get(COLLECTIONS), version: 'HTTP/1.2' }),
    expect: byNode(400),
  },
  {
    name: 'protocol: a fragment in the target is part of the path (no route) (raw)',
    request: raw(get(`${COLLECTIONS}#frag`)),
    expect: fail('not_found'),
  },
  {
    name: 'protocol: an empty query string (raw)',
    request: raw(get(`${COLLECTIONS}?`)),
    expect: success(),
  },
  {
    name: 'protocol: a method in lower case ("get") is refused by Node (raw)',
    request: raw({ method: 'get', path: COLLECTIONS, headers: [FULL] }),
    expect: byNode(400),
  },
  {
    name: 'protocol: a space inside the target is refused by Node (raw)',
    request: raw(get(`${API}/colle ctions`)),
    expect: byNode(400),
  },
  {
    name: 'protocol: a header line without a colon is refused by Node (raw)',
    request: raw(get(COLLECTIONS, [FULL, ['X-Broken header', 'x']])),
    expect: byNode(400),
  },
  {
    name: 'protocol: a NUL byte in a header value is refused by Node (raw)',
    request: raw(get(COLLECTIONS, [['Authorization', 'Bearer answers\x00test']])),
    expect: byNode(400),
  },
  {
    name: 'protocol: an obs-fold continuation line is refused by Node (raw)',
    request: raw(get(COLLECTIONS, [['Authorization', `Bearer\r\n ${KEYS.full}`]])),
    expect: byNode(400),
  },
  {
    name: 'protocol: Content-Length and Transfer-Encoding together are refused by Node (raw)',
    request: raw({
      method: 'POST',
      path: COLLECTIONS,
      headers: [...WRITE, ['Content-Length', '3'], ['Transfer-Encoding', 'chunked']],
      body: '0\r\n\r\n',
    }),
    expect: byNode(400),
  },
  {
    name: 'protocol: two different Content-Length headers are refused by Node (raw)',
    request: raw({
      method: 'POST',
      path: COLLECTIONS,
      headers: [...WRITE, ['Content-Length', '3'], ['Content-Length', '4']],
      body: 'abcd',
    }),
    expect: byNode(400),
  },
  {
    name: 'protocol: a 20 KiB header is refused by Node with 431 (raw)',
    request: raw(get(COLLECTIONS, [FULL, ['X-Padding', 'p'.repeat(20 * 1024)]])),
    expect: byNode(431),
  },
  {
    name: 'protocol: a 20 KiB target is refused by Node with 431 (raw)',
    request: raw(get(`${COLLECTIONS}?pad=${'p'.repeat(20 * 1024)}`)),
    expect: byNode(431),
  },
  {
    name: 'protocol: an unknown Expect is refused by Node with 417 (raw)',
    request: raw(get(COLLECTIONS, [FULL, ['Expect', 'something-else']])),
    expect: byNode(417),
  },
  {
    name: 'protocol: Expect: 100-continue gets the final answer (raw)',
    request: raw(
      send('POST', COLLECTIONS, '{"name":"after continue"}', [
        ...WRITE,
        ['Expect', '100-continue'],
      ]),
    ),
    expect: success(201),
  },
  {
    name: 'protocol: CONNECT is dropped by Node without a response (raw)',
    request: raw({ method: 'CONNECT', path: '127.0.0.1:1', headers: [] }),
    expect: { status: 0, contentType: null, code: null, byNode: true },
  },
  {
    name: 'protocol: OPTIONS is the CORS preflight on any path',
    request: { method: 'OPTIONS', path: COLLECTIONS, headers: [['Origin', 'http://a.test']] },
    expect: success(204, null),
  },
  {
    name: 'protocol: an unknown path outside the API',
    request: get('/etc/passwd'),
    expect: fail('not_found'),
  },
  {
    name: 'protocol: Prefer forcing a status the operation does not document',
    request: get(COLLECTIONS, [FULL, ['Prefer', 'code=418']]),
    expect: fail('invalid_parameter'),
  },
];

// ---------------------------------------------------------------------------------------------
// Methods: every undocumented method on every path of openapi.yaml (GAP-METHODS), generated
// ---------------------------------------------------------------------------------------------

interface OpenApiDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
}

const openapi = parse(
  readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'),
) as OpenApiDocument;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** The methods tried on every path; FOO is made up. */
const TRIED_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'HEAD', 'TRACE', 'FOO'];
const PREFIXES = openapi.servers.map((server) => server.url.replace('{base_url}', ''));

function methodCases(): CatalogueCase[] {
  const cases: CatalogueCase[] = [];
  for (const [template, item] of Object.entries(openapi.paths)) {
    const documented = HTTP_METHODS.filter((m) => m in item).map((m) => m.toUpperCase());
    const path = template
      .replace('{collection_id}', '{{ACME_COL}}')
      .replace('{object_id}', '{{ACME_OBJ}}');
    for (const prefix of PREFIXES) {
      for (const method of TRIED_METHODS.filter((m) => !documented.includes(m))) {
        cases.push({
          name: `methods: ${method} ${prefix}${template} (documented: ${documented.join(', ')})`,
          // @note Sent without a key: the route (404/405) is checked before authentication.
          request: raw({ method, path: `${prefix}${path}`, headers: [] }),
          // @note Node's HTTP parser only knows registered methods: FOO never reaches the mock.
          expect:
            method === 'FOO' ? byNode(400) : fail('method_not_allowed', { allow: documented }),
        });
      }
    }
  }
  return cases;
}

const methods = methodCases();

export const CASES: CatalogueCase[] = [
  ...auth,
  ...ids,
  ...query,
  ...body,
  ...search,
  ...protocol,
  ...methods,
];

/** How many cases were written by hand (the rest are generated from openapi.yaml). */
export const HANDWRITTEN = CASES.length - methods.length;
