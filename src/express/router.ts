import express, { type Router } from 'express';
import type { AnswersMock } from '../core/mock.ts';
import type { MockRequest } from '../core/http.ts';
import { hostRule, namedBy } from '../core/allowed-hosts.ts';
import { bodyLimit, isControlPath, isMockPath } from '../core/serve.ts';
import { hostCheck } from '../node/host-check.ts';
import { createInspectorSite, isInspectorPath } from '../node/inspector-site.ts';
import { logInternalError, readMockRequest, sendResponse } from '../node/node-io.ts';

/** Options of {@link createAnswersRouter}. */
export interface AnswersRouterOptions {
  /** Serves the control API under `/__mock`. Default true. */
  control?: boolean | undefined;
  /** The largest body `PUT /__mock/state` accepts, in bytes. Default 256 MiB. */
  maxStateBytes?: number | undefined;
  /**
   * Host names the mock's paths answer besides loopback names (`localhost`, `*.localhost`,
   * 127.x.x.x, [::1]), e.g. `['dev.example.test']` when the app is reached by that name; any other
   * `Host` (a DNS-rebinding page) gets 403 `forbidden_host`. `'*'` answers any name on the API,
   * never on the control API. The app's own routes are not checked.
   */
  allowedHosts?: readonly string[] | undefined;
}

/**
 * The body a parser mounted before the router (`express.json()`, `express.text()`,
 * `express.raw()`) already read from the stream, as bytes again: the core validates the body
 * itself, and would otherwise see none and answer that the body is empty.
 */
function parsedBody(request: MockRequest, parsed: unknown): void {
  if (request.body !== undefined || request.bodyTooLarge || parsed === undefined) return;
  if (parsed instanceof Uint8Array) request.body = parsed;
  else if (typeof parsed === 'string') request.body = new TextEncoder().encode(parsed);
  // @note express 5's parsers leave `req.body` undefined when the content type was not theirs.
  else request.body = new TextEncoder().encode(JSON.stringify(parsed));
}

/**
 * An express 5 router serving a mock of the Answers API (and its control API), to mount in a dev
 * server with `app.use(createAnswersRouter(mock))`. It reads the raw body itself; mounted after a
 * body parser, it takes the parsed body instead (re-serialised, so byte-exact checks such as the
 * size limit see the parser's view). Paths that are not the mock's go on to the app's other routes untouched.
 * The mock's paths answer loopback names and `allowedHosts` only: a web page the developer visits
 * could otherwise re-point its own name at the app (DNS rebinding), export every key and reset
 * the data.
 */
export function createAnswersRouter(mock: AnswersMock, options: AnswersRouterOptions = {}): Router {
  const control = options.control ?? true;
  const hosts = hostRule(options.allowedHosts ?? []);
  const limits = { control, maxStateBytes: options.maxStateBytes, namedHost: namedBy(hosts) };
  const checkHost = hostCheck<express.Request>(hosts, {
    isControl: (req) => control && isControlPath(req.path),
    controlToken: false,
    allow: (name) => `add '${name}' to the router's allowedHosts`,
  });
  const inspector = createInspectorSite();
  const router = express.Router();
  router.use(async (req, res, next) => {
    // @note Decided before reading the body, so that the app's own routes still get theirs.
    if (!isMockPath(req.path, { control })) return next();
    const refused = checkHost(req);
    if (refused) return void sendResponse(res, refused);
    const request = await readMockRequest(req, (path) => bodyLimit(path, limits));
    if (control && isInspectorPath(request.path))
      return void sendResponse(res, inspector(request, limits.namedHost));
    if (req.readableEnded) parsedBody(request, (req as { body?: unknown }).body);
    const { response, internal } = await mock.handle(request, limits);
    if (internal !== undefined) logInternalError(internal);
    // @note Not awaited: a large or streamed body is written as the client takes it.
    void sendResponse(res, response);
  });
  return router;
}
