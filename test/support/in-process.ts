/**
 * Requests sent straight to a mock's `handle`, without a transport: for tests of the core and of
 * the faults, where a server in between would only add noise.
 */
import { expect } from 'vitest';
import type { AnswersMock } from '../../src/index.ts';
import type { MockRequest } from '../../src/core/http.ts';
import { validateResponse } from '../../src/openapi/response-validation.ts';
import { KEYS } from './keys.ts';

const PREFIX = '/api/answers/v1';

/** A request to send in-process. */
export interface Sent {
  method?: string;
  /** The path below the API prefix, e.g. `/collections`. */
  path: string;
  /** The key sent as `Authorization: Bearer`; null sends none. Default: acme's full key. */
  key?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** The core's request value for `sent` (a JSON body when there is one). */
export function mockRequest({ method = 'GET', path, key = KEYS.full, headers, query, body }: Sent) {
  const all = new Headers(headers);
  const value: MockRequest = {
    method,
    path: `${PREFIX}${path}`,
    query: new URLSearchParams(query),
    headers: all,
  };
  if (key !== null) all.set('authorization', `Bearer ${key}`);
  if (body !== undefined) {
    all.set('content-type', 'application/json');
    value.body = new TextEncoder().encode(JSON.stringify(body));
  }
  return value;
}

/** Sends one request and reads the response, JSON body parsed. */
export async function send(mock: AnswersMock, sent: Sent) {
  const { response } = await mock.handle(mockRequest(sent));
  const json: any = response.body ? JSON.parse(response.body) : undefined;
  return { ...response, json };
}

/** Sends `body` as it is (e.g. malformed JSON), as application/json. */
export async function sendRaw(mock: AnswersMock, sent: Sent, body: string) {
  const raw = mockRequest({
    ...sent,
    headers: { ...sent.headers, 'content-type': 'application/json' },
  });
  raw.body = new TextEncoder().encode(body);
  const { response } = await mock.handle(raw);
  return { ...response, json: response.body ? JSON.parse(response.body) : undefined };
}

/** The violations of openapi.yaml in a response (empty when it conforms). */
export async function violations(mock: AnswersMock, operationId: string, sent: Sent) {
  const { response } = await mock.handle(mockRequest(sent));
  return validateResponse(operationId, {
    status: response.status,
    headers: new Headers(response.headers),
    body: response.body ?? '',
  });
}

/** Every item of a list, page by page, in-process; fails on a walk that does not end. */
export async function walkInProcess(mock: AnswersMock, path: string, limit: number) {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const query: Record<string, string> = { limit: String(limit) };
    if (cursor) query.cursor = cursor;
    const page = await send(mock, { path, query });
    expect(page.status).toBe(200);
    items.push(...page.json.data);
    cursor = page.json.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('the walk did not end');
}
