/**
 * The `Host` check of the adapters that read Node requests (the Node server, the express router):
 * one `Host` header, whose name the shared rule of `core/allowed-hosts.ts` lets in. Anything else
 * is a DNS-rebinding page or a name nobody gave the mock, and gets 403 (as Vite's and
 * webpack-dev-server's host checks do, after CVE-2025-24010 and CVE-2025-30359/30360).
 */
import type { IncomingMessage } from 'node:http';
import { hostRefusal, type HostRefusalContext, type HostRule } from '../core/allowed-hosts.ts';
import type { MockResponse } from '../core/http.ts';
import { hostnameOf } from '../core/local-names.ts';
import { problemResponse } from '../core/problem.ts';
import { headerValues } from './raw-headers.ts';

/** Answers whether a request may go on (`undefined`), else the problem to send. */
export type HostCheck<R extends IncomingMessage> = (req: R) => MockResponse | undefined;

/** How the adapter tells a control request and its token, and how its user allows a name. */
export interface HostCheckOptions<R extends IncomingMessage> extends Pick<
  HostRefusalContext,
  'controlToken' | 'allow'
> {
  /** Whether the request is for the control API (as the adapter serves it). */
  isControl: (req: R) => boolean;
}

/** The check of a rule's names (see `hostRule`: loopback names always; `*` opens the API). */
export function hostCheck<R extends IncomingMessage>(
  rule: HostRule,
  options: HostCheckOptions<R>,
): HostCheck<R> {
  // @note Most requests repeat the Host header of the one before: a name that passes on every
  // path is remembered.
  let lastNamed: string | undefined;
  return (req) => {
    const hosts = headerValues(req.rawHeaders, 'host');
    if (hosts.length > 1)
      return problemResponse(
        { code: 'invalid_parameter', title: 'Invalid Host', status: 400 },
        'A request may carry one Host header.',
      );
    const host = hosts[0];
    if (host === undefined) return undefined; // HTTP/1.0 without Host: no name to rebind
    if (host === lastNamed) return undefined;
    const hostname = hostnameOf(host);
    if (rule(hostname) === 'named') {
      lastNamed = host;
      return undefined;
    }
    return hostRefusal(rule, hostname, {
      isControl: () => options.isControl(req),
      controlToken: options.controlToken,
      allow: options.allow,
    });
  };
}
