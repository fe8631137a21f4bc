/**
 * The oracle of the random requests: what every response must satisfy, whatever the request.
 */
import type { HeaderBag } from '../../../src/core/http.ts';
import { matchRoute } from '../../../src/core/router.ts';
import { OPERATIONS } from '../../../src/openapi/operations.ts';
import { validateResponse } from '../../../src/openapi/response-validation.ts';
import { DEV_KEYS } from '../../../src/seed/dev-keys.ts';
import type { Observed } from '../fuzz-support.ts';
import { API_PREFIXES } from './request-case.ts';

/** The permission an API operation needs, from the README's table (not from the code). */
function permissionOf(method: string, path: string): 'read' | 'write' | 'search' {
  if (method.toUpperCase() === 'POST' && path.endsWith('/search')) return 'search';
  return method.toUpperCase() === 'GET' ? 'read' : 'write';
}

/** Whether the request carries one valid, active key with the permission the operation needs. */
function isAuthorized(method: string, path: string, headers: HeaderBag): boolean {
  const presented: string[] = [];
  // GAP-AUTH-FORM: a header repeated with the same value is that value (repeats arrive joined
  // with ", "); repeated with different values, it is malformed.
  const single = (value: string | null) => {
    if (value === null || !value.includes(',')) return value;
    const parts = value.split(',').map((part) => part.trim());
    return parts.every((part) => part === parts[0]) ? parts[0]! : undefined;
  };
  const authorization = single(headers.get('authorization'));
  if (authorization === undefined) return false;
  if (authorization !== null) {
    const match = /^bearer (.+)$/i.exec(authorization);
    if (!match) return false;
    presented.push(match[1]!);
  }
  const header = single(headers.get('x-answers-api-key'));
  if (header === undefined) return false;
  if (header !== null) presented.push(header);
  if (presented.length === 0 || new Set(presented).size !== 1) return false;
  const key = DEV_KEYS.find((k) => k.key === presented[0]);
  return !!key && key.active && key.permissions.includes(permissionOf(method, path));
}

/** The status a `Prefer: code=NNN` header forces, which the mock may answer even when 5xx. */
function forcedStatus(headers: HeaderBag): number | undefined {
  const match = /(?:^|[,;\s])code=(\d{3})(?:$|[,;\s])/i.exec(headers.get('prefer') ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * What every response must satisfy, whatever the request: never a 5xx (unless a 5xx was forced
 * with `Prefer`), never a 2xx without a valid active key with the operation's permission, every
 * error a problem JSON body whose `status` and `code` match, every 401 a challenge, and every
 * answer of a routed operation valid against `openapi.yaml`. Returns the violations.
 */
export function violations(
  request: { method: string; path: string; headers: HeaderBag },
  response: Observed,
  options: { http?: boolean } = {},
): string[] {
  const found: string[] = [];
  const { status } = response;
  const method = request.method.toUpperCase();
  const forced = forcedStatus(request.headers);
  if (status >= 500 && !(forced === status && isAuthorized(method, request.path, request.headers)))
    found.push(`status ${status}`);
  if (status < 100 || status > 599) found.push(`status ${status} is not an HTTP status`);
  const preflight = options.http && method === 'OPTIONS';
  if (status >= 200 && status < 300 && !preflight) {
    if (!API_PREFIXES.some((p) => request.path.startsWith(`${p}/`)))
      found.push(`${status} outside the API prefixes`);
    if (!isAuthorized(method, request.path, request.headers))
      found.push(`${status} without a valid active key with the operation's permission`);
  }
  const hasBody = !(options.http && method === 'HEAD');
  if (status >= 400 && hasBody) {
    const type = response.headers.get('content-type');
    if (type !== 'application/problem+json') found.push(`error content type ${type}`);
    const problem = response.json;
    if (typeof problem !== 'object' || problem === null) found.push('error body is not JSON');
    else {
      if (typeof problem.code !== 'string' || problem.code === '')
        found.push('problem without code');
      if (problem.status !== status) found.push(`problem status ${problem.status} != ${status}`);
    }
  }
  if (status === 401 && !response.headers.get('www-authenticate'))
    found.push('401 without WWW-Authenticate');
  const match = matchRoute(request.path);
  const operation = match?.operations.get(method);
  if (operation && OPERATIONS.has(operation.operationId) && hasBody) {
    for (const v of validateResponse(operation.operationId, {
      status,
      headers: response.headers,
      body: response.text,
    }))
      found.push(`openapi.yaml: ${v}`);
  }
  return found;
}
