/**
 * Which `Host` names the Node server answers: loopback names, the address it listens on, and the
 * names given with `--allowed-hosts`. Anything else is a DNS-rebinding page or a name nobody gave
 * the mock, and gets 403 on every route (as Vite's and webpack-dev-server's host checks do, after
 * CVE-2025-24010 and CVE-2025-30359/30360).
 */
import type { IncomingMessage } from 'node:http';
import { hostnameOf, isLoopbackName } from '../core/local-names.ts';
import { headerValues } from './raw-headers.ts';

/** Answers whether a request's Host is allowed; `undefined` when it is. */
export type HostCheck = (req: IncomingMessage) => { status: 400 | 403; detail: string } | undefined;

export function hostCheck(listenHost: string | undefined, allowed: readonly string[]): HostCheck {
  const names = new Set(
    [listenHost, ...allowed]
      .filter((name): name is string => Boolean(name))
      .map((name) => (name.includes(':') && !name.startsWith('[') ? `[${name}]` : name))
      .map((name) => name.toLowerCase()),
  );
  // @note 0.0.0.0 and :: mean "every address of this machine", not a name a client sends.
  names.delete('0.0.0.0');
  names.delete('[::]');
  // @note Most requests repeat the Host header of the one before: its verdict is kept.
  let lastAllowed: string | undefined;
  return (req) => {
    const hosts = headerValues(req.rawHeaders, 'host');
    if (hosts.length > 1) return { status: 400, detail: 'A request may carry one Host header.' };
    const host = hosts[0];
    if (host === undefined) return undefined; // HTTP/1.0 without Host: no name to rebind
    if (host === lastAllowed) return undefined;
    const name = hostnameOf(host).toLowerCase();
    if (isLoopbackName(name) || names.has(name) || names.has('*')) {
      lastAllowed = host;
      return undefined;
    }
    return {
      status: 403,
      detail: `The mock does not answer to the host name ${name}; start it with --allowed-hosts ${name} to allow it.`,
    };
  };
}
