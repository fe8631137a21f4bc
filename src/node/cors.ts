/**
 * CORS of the Node server: the API is open to any origin (a frontend on another port calls it);
 * the control API only to pages served from this machine.
 */
import { isLocalOrigin } from '../core/local-names.ts';

/** CORS headers of every response: any origin may call the mock and read these headers. */
export const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, WWW-Authenticate, Retry-After, Allow',
};

export const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers':
    'Authorization, X-Answers-API-Key, Content-Type, Prefer, X-Answers-Mock-Token',
  'access-control-max-age': '600',
};

/**
 * The CORS headers for a request: the API is open to any origin; the control API only to pages
 * served from this machine.
 * @note `/__mock` can export every key and wipe the data: with `*` there, any web page a
 * developer visits could read or reset the mock through the developer's browser.
 */
export function corsFor(
  path: string,
  origin: () => string | undefined,
  headers: Record<string, string>,
): Record<string, string> {
  if (!path.startsWith('/__mock')) return headers;
  // @note Read only here: most requests are the API's, whose answer does not depend on it.
  const sent = origin();
  if (!sent || !isLocalOrigin(sent, null)) return {};
  return { ...headers, 'access-control-allow-origin': sent, vary: 'Origin' };
}
