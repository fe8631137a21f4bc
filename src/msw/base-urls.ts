/**
 * Which requests the msw handlers may claim: those sent to one of the base URLs the test author
 * configured. A request to any other origin falls through to msw's unhandled-request handling,
 * as it would if the kit were not installed.
 */
import { isLoopbackName } from '../core/local-names.ts';

/** One base URL: an origin (or any origin) and a path the API prefixes follow. */
export interface BaseUrl {
  /** `undefined` matches any origin (`'*'`). */
  origin: string | undefined;
  /** Without a trailing slash; `''` for the root. */
  path: string;
}

/**
 * Parses the `baseUrl` option. Default: every loopback origin (localhost, 127.x.x.x, [::1], on
 * any port) and, in a browser, the page's own origin.
 */
export function parseBaseUrls(
  option: string | readonly string[] | undefined,
): BaseUrl[] | 'loopback' {
  if (option === undefined) return 'loopback';
  const list = typeof option === 'string' ? [option] : option;
  return list.map((value) => {
    if (value === '*') return { origin: undefined, path: '' };
    const url = new URL(value);
    return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
  });
}

/**
 * The path of `url` below the base URL that claims it (what the core routes on), or undefined
 * when no base URL claims it.
 */
export function pathBelow(bases: BaseUrl[] | 'loopback', url: URL): string | undefined {
  if (bases === 'loopback') {
    const own = typeof location === 'object' && location.origin === url.origin;
    return own || isLoopbackName(url.hostname) ? url.pathname : undefined;
  }
  for (const base of bases) {
    if (base.origin !== undefined && base.origin !== url.origin) continue;
    if (base.path === '') return url.pathname;
    if (url.pathname.startsWith(`${base.path}/`)) return url.pathname.slice(base.path.length);
  }
  return undefined;
}

/**
 * The host names `baseUrl` gives by name (for the host check of `core/allowed-hosts.ts`): the
 * base URLs' own and, in a browser, the page's, whose requests are the app's own.
 */
export function hostsOf(bases: BaseUrl[] | 'loopback'): string[] {
  const page = typeof location === 'object' ? [location.hostname] : [];
  if (bases === 'loopback') return page;
  return [
    ...page,
    ...bases.flatMap((base) => (base.origin ? [new URL(base.origin).hostname] : [])),
  ];
}

/** Whether a base URL is `'*'`, which claims the API on any origin. */
export function claimsAnyOrigin(bases: BaseUrl[] | 'loopback'): boolean {
  return bases !== 'loopback' && bases.some((base) => base.origin === undefined);
}
