/**
 * Which host names a mock answers: the one DNS-rebinding rule of the Node server, the express
 * router and the msw handlers. A page on `attacker.example` whose name is re-pointed at 127.0.0.1
 * reaches the mock through the developer's browser as a same-origin page: it sends
 * `Host: attacker.example` (and, on writes, `Origin: http://attacker.example`), and its reads carry
 * no Origin at all, so the host name is the only thing that tells it from the developer's pages.
 * @see CVE-2025-24010 (Vite's `server.allowedHosts`, which the Node server's check follows)
 */
import { isLoopbackName } from './local-names.ts';
import { problemResponse } from './problem.ts';
import type { MockResponse } from './http.ts';

/**
 * How a host name stands: `named` (a loopback name or one given by name: the API and the control
 * API), `wildcard` (let in by `*` alone: the API only), or `refused`.
 */
type HostStanding = 'named' | 'wildcard' | 'refused';

/** The standing of a host name (no port; IPv6 in brackets, as `URL.hostname` gives it). */
export type HostRule = (hostname: string) => HostStanding;

/** A name as compared: lower case, IPv6 bracketed, without the trailing dot of a full name. */
function normalised(name: string): string {
  const bracketed = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
  return bracketed.toLowerCase().replace(/\.$/, '');
}

/**
 * The rule for a list of allowed names (undefined entries are skipped): loopback names and the
 * listed ones are named; `*` lets any other name reach the API, never the control API on its own.
 */
export function hostRule(names: readonly (string | undefined)[]): HostRule {
  const listed = new Set(names.filter((name): name is string => Boolean(name)).map(normalised));
  const anyName = listed.delete('*');
  // @note 0.0.0.0 and :: mean "every address of this machine", not a name a client sends.
  listed.delete('0.0.0.0');
  listed.delete('[::]');
  return (hostname) => {
    const name = normalised(hostname);
    if (isLoopbackName(name) || listed.has(name)) return 'named';
    return anyName ? 'wildcard' : 'refused';
  };
}

/** Whether a rule names a host (the `namedHost` option of `serve`: its own pages are trusted). */
export function namedBy(rule: HostRule): (hostname: string) => boolean {
  return (hostname) => rule(hostname) === 'named';
}

/** What {@link hostRefusal} needs to know of the request and the adapter. */
export interface HostRefusalContext {
  /** Whether the request is for the control API (asked only of a name `*` let in). */
  isControl: () => boolean;
  /** Whether the control API needs a token, which the core then checks (`controlToken`). */
  controlToken: boolean;
  /** How a user of this adapter allows `name`, e.g. "start it with --allowed-hosts mock.test". */
  allow: (name: string) => string;
}

/**
 * The 403 `forbidden_host` for a request to `hostname`, or undefined when it may go on: a refused
 * name gets it on every path; a name let in by `*` gets it on the control API (which can export
 * every key and wipe the data) unless a control token guards that.
 * @note `*` opens the API alone: every page may call the API across origins anyway (its CORS is
 * open, as the real service's is), so a rebinding page gains nothing there.
 */
export function hostRefusal(
  rule: HostRule,
  hostname: string,
  context: HostRefusalContext,
): MockResponse | undefined {
  const standing = rule(hostname);
  if (standing === 'named') return undefined;
  const name = normalised(hostname);
  if (standing === 'refused')
    return forbiddenHost(
      `The mock does not answer to the host name ${name}; ${context.allow(name)} to allow it.`,
    );
  if (context.controlToken || !context.isControl()) return undefined;
  return forbiddenHost(
    `The control API answers host names given by name only, not ${name} (let in by *); ${context.allow(name)} to allow it.`,
  );
}

function forbiddenHost(detail: string): MockResponse {
  return problemResponse(
    { code: 'forbidden_host', title: 'Host not allowed', status: 403 },
    detail,
  );
}
