/**
 * The inspector page at `/__mock/ui` (issue 50): the request journal live, the data as a key
 * sees it, and the controls, in one page the Node server and the express router serve beside the
 * control API it drives. Its files are static and hold no data: what it shows it reads from the
 * control API and the API, each request under their own rules (the token, when the mock has one,
 * travels with each of them). The page keeps the control API's first rule, a foreign `Origin`
 * gets 403, and the adapters' Host check covers it as any control path. Offline: nothing is
 * loaded from anywhere else, and the Content-Security-Policy says so to the browser.
 */
import { readFileSync } from 'node:fs';
import { CONTROL_PREFIX, foreignOriginRefusal } from '../core/control-routes.ts';
import type { MockRequest, MockResponse } from '../core/http.ts';
import { problem } from '../core/problem.ts';

/** Where the page is. */
const INSPECTOR_PATH = `${CONTROL_PREFIX}/ui`;

/**
 * The page's files, from every place the module runs (src/node/, dist/src/node/, a bundle in
 * dist/src/bin/ or .tmp/bin/): each is two folders below the package root.
 */
const FILES = new URL('../../src/node/inspector/', import.meta.url);

const TYPES: Record<string, string> = {
  '': 'text/html; charset=utf-8',
  '/inspector.css': 'text/css; charset=utf-8',
  '/inspector.js': 'text/javascript; charset=utf-8',
};

const SECURITY = {
  // @note Nothing from elsewhere, no inline script or style: the page works offline, and a value
  // the mock holds can never run as script even if it were written as markup.
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

/** Whether a path is the inspector's: the page and its two files. */
export function isInspectorPath(path: string): boolean {
  return path === INSPECTOR_PATH || path.startsWith(`${INSPECTOR_PATH}/`);
}

/**
 * Answers a request to the inspector's paths (see {@link isInspectorPath}): GET and HEAD of its
 * files, read once; a foreign page's request gets the control API's 403.
 */
export function createInspectorSite(): (
  request: MockRequest,
  namedHost: ((hostname: string) => boolean) | undefined,
) => MockResponse {
  const cache = new Map<string, string>();
  const file = (name: string) => {
    let text = cache.get(name);
    if (text === undefined) cache.set(name, (text = readFileSync(new URL(name, FILES), 'utf8')));
    return text;
  };
  return (request, namedHost) => {
    const refused = foreignOriginRefusal(request, namedHost);
    if (refused) return refused;
    const method = request.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD')
      return problem('method_not_allowed', `${method} is not supported here; use GET, HEAD.`, {
        headers: { allow: 'GET, HEAD' },
      });
    const rest = request.path.slice(INSPECTOR_PATH.length);
    // @note The page's files are named relative to `/__mock/ui` (ui/inspector.js): from `ui/`
    // they would be looked for one folder too deep.
    if (rest === '/') return { status: 308, headers: { location: INSPECTOR_PATH } };
    const type = Object.hasOwn(TYPES, rest) ? TYPES[rest] : undefined;
    if (type === undefined)
      return problem(
        'not_found',
        `No inspector file has the path ${request.path}; the page is ${INSPECTOR_PATH}.`,
      );
    const body = file(rest === '' ? 'inspector.html' : rest.slice(1));
    return {
      status: 200,
      headers: { 'content-type': type, ...SECURITY },
      body: method === 'HEAD' ? undefined : body,
    };
  };
}
