import { expect } from 'vitest';
import { validateResponse } from '../../src/openapi/response-validation.ts';
import { KEYS } from './keys.ts';

/** The origin the msw tests address; any origin works, this one can never reach a network. */
const ORIGIN = 'http://answers.test';
const BASE = `${ORIGIN}/api/answers/v1`;

export { KEYS } from './keys.ts';

/** A response read whole, with the body parsed when it is JSON. */
export interface ReadResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/**
 * Sends a request and checks the response against `openapi.yaml` for `operationId` (documented
 * status, content type, required headers, body schema) before returning it: every response in
 * the behaviour tests is validated this way.
 */
export async function call(
  operationId: string | undefined,
  method: string,
  url: string,
  options: {
    key?: string | null;
    headers?: Record<string, string>;
    body?: unknown;
    base?: string;
  } = {},
): Promise<ReadResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? KEYS.full : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${options.base ?? BASE}${url}`, { method, headers, body });
  const text = await response.text();
  if (operationId) {
    const violations = validateResponse(operationId, {
      status: response.status,
      headers: response.headers,
      body: text,
    });
    expect(violations, `${method} ${url} -> ${response.status} breaks openapi.yaml`).toEqual([]);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Walks every page of a list and returns all items, failing on a cycle. */
export async function walk(
  operationId: string,
  url: string,
  options: { key?: string; limit?: number; order?: string } = {},
) {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const query = new URLSearchParams({ limit: String(options.limit ?? 5) });
    if (options.order) query.set('order', options.order);
    if (cursor) query.set('cursor', cursor);
    const page = await call(operationId, 'GET', `${url}?${query}`, { key: options.key });
    expect(page.status).toBe(200);
    items.push(...page.json.data);
    cursor = page.json.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('the walk did not end after 1000 pages');
}
