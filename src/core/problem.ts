import { withContentType, type MockResponse } from './http.ts';

/**
 * Every error code the API can return, with its status and title.
 * @see docs/spec-gaps.md GAP-ERR-CODES, GAP-ERR-STATUS
 */
const PROBLEM_CODES = {
  malformed_json: { status: 400, title: 'Malformed JSON' },
  validation_failed: { status: 400, title: 'Validation failed' },
  invalid_parameter: { status: 400, title: 'Invalid parameter' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  missing_credentials: { status: 401, title: 'Missing credentials' },
  malformed_credentials: { status: 401, title: 'Malformed credentials' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  inactive_api_key: { status: 401, title: 'Inactive API key' },
  conflicting_api_keys: { status: 401, title: 'Conflicting API keys' },
  insufficient_permission: { status: 401, title: 'Insufficient permission' },
  not_found: { status: 404, title: 'Not found' },
  collection_not_found: { status: 404, title: 'Collection not found' },
  object_not_found: { status: 404, title: 'Object not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  collection_name_taken: { status: 409, title: 'Collection name taken' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  insufficient_storage: { status: 507, title: 'Insufficient storage' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/** Where a field error was found. */
export interface FieldError {
  location: 'body' | 'query' | 'path' | 'header';
  pointer: string;
  message: string;
}

/** The JSON of a problem up to its `detail` (`{"type":…,"detail":`). */
function problemHead(code: string, status: number, title: string): string {
  const fields = { type: `urn:answers:problem:${code}`, title, status, code, detail: '' };
  return JSON.stringify(fields).slice(0, -'""}'.length);
}

/** The head of each problem of the API, written once. */
const HEADS = new Map(
  Object.entries(PROBLEM_CODES).map(([code, { status, title }]) => [
    code,
    problemHead(code, status, title),
  ]),
);

/**
 * `JSON.stringify(text)`, without its general machinery for the usual text, which has nothing to
 * escape (no quote, backslash, control character or surrogate).
 */
function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff))
      return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * Builds an RFC 9457 `application/problem+json` response.
 * @see https://www.rfc-editor.org/rfc/rfc9457
 */
export function problem(
  code: ProblemCode,
  detail: string,
  options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): MockResponse {
  const { status, title } = PROBLEM_CODES[code];
  return problemResponse({ code, status, title }, detail, options, HEADS.get(code));
}

/**
 * A problem response of any code, also the mock's own (control API, Host check), which are not
 * codes of the Answers API.
 */
export function problemResponse(
  { code, status, title }: { code: string; status: number; title: string },
  detail: string,
  options: { errors?: FieldError[] | undefined; headers?: Record<string, string> } = {},
  head = problemHead(code, status, title),
): MockResponse {
  // @note The bytes of `JSON.stringify({ type, title, status, code, detail, errors })`, from a
  // head written once per problem code: stringifying was a sixth of a 401's CPU.
  const errors =
    options.errors && options.errors.length > 0
      ? `,"errors":${JSON.stringify(options.errors)}`
      : '';
  return {
    status,
    headers: withContentType('application/problem+json', options.headers),
    body: `${head}${jsonString(detail)}${errors}}`,
  };
}
