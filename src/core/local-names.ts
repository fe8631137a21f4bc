/**
 * What counts as this machine: the one rule the control API's origin check, the Node server's
 * Host check, CORS and the msw handlers' default base URLs share.
 */

/** `localhost` and its subdomains, 127.0.0.0/8 and `::1` (bracketed or not). */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(name) ||
    name === '[::1]' ||
    name === '::1'
  );
}

/** The host name of a `Host` header value (`[::1]:4010` -> `[::1]`, `a.test:80` -> `a.test`). */
export function hostnameOf(host: string): string {
  const trimmed = host.trim();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  const colon = trimmed.lastIndexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/**
 * Whether a request's `Origin` is a page of this machine, or of the very host it was sent to (the
 * mock's own pages, e.g. `/docs`) when that host's name is `named` (a loopback name by default).
 * A missing Origin is a request no browser page made.
 * @note An Origin equal to Host is what a DNS-rebinding page sends too: it proves nothing unless
 * the name is one the mock was given (see `allowed-hosts.ts`).
 */
export function isLocalOrigin(
  origin: string | null,
  host: string | null,
  named: (hostname: string) => boolean = isLoopbackName,
): boolean {
  if (origin === null) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file) and anything else unparsable
  }
  if (!/^https?:$/.test(url.protocol)) return false;
  return (
    isLoopbackName(url.hostname) ||
    (host !== null && url.host === host.toLowerCase() && named(url.hostname))
  );
}
