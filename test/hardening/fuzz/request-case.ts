/**
 * One random request as plain JSON ({@link RequestCase}), so that a counterexample can be pasted
 * into a regression test, and how it becomes bytes, headers and a `MockRequest`.
 */
import type { MockRequest } from '../../../src/core/http.ts';

/** A body: text, raw bytes (base64), or the concatenation of parts (`[text, times]` repeats). */
export type BodyCase =
  { text: string } | { base64: string } | { parts: Array<string | [string, number]> };

/** One request, as plain JSON so that a counterexample can be pasted into a regression test. */
export interface RequestCase {
  method: string;
  /** The path as sent (percent-encoded, no query string). */
  path: string;
  /** The query string without `?`. */
  query: string;
  headers: Array<[string, string]>;
  body?: BodyCase | undefined;
  /** Set as an adapter would after a body past the size limit. */
  bodyTooLarge?: boolean | undefined;
}

export const API_PREFIXES = ['/api/answers/v1', '/api/answers', '/v1'];
/** The instant the fuzzed mocks are frozen at. */
export const NOW = '2026-11-22T12:00:00.000Z';

export function bodyBytes(body: BodyCase | undefined): Uint8Array | undefined {
  if (!body) return undefined;
  if ('text' in body) return new TextEncoder().encode(body.text);
  if ('base64' in body) return new Uint8Array(Buffer.from(body.base64, 'base64'));
  const text = body.parts.map((p) => (typeof p === 'string' ? p : p[0].repeat(p[1]))).join('');
  return new TextEncoder().encode(text);
}

/** Headers as WHATWG `Headers` normalise them; pairs Headers refuses are left out. */
export function headersOf(pairs: Array<[string, string]>): Headers {
  const headers = new Headers();
  for (const [name, value] of pairs) {
    try {
      headers.append(name, value);
    } catch {
      // Not a valid header name or value: no transport could carry it either.
    }
  }
  return headers;
}

export function toMockRequest(c: RequestCase): MockRequest {
  return {
    method: c.method,
    path: c.path,
    query: new URLSearchParams(c.query),
    headers: headersOf(c.headers),
    body: bodyBytes(c.body),
    bodyTooLarge: c.bodyTooLarge,
  };
}
