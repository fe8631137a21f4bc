import type { operations } from '../generated/openapi.ts';
import {
  bodyDecision,
  responseViolations,
  type Violation,
} from '../openapi/response-validation.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheckFailure, CheckSkipped, Interrupted, seconds, TargetStalled } from './failure.ts';
import { nestsDeeperThan } from '../openapi/json-depth.ts';
import { LIMITS } from './limits.ts';

/** A response as the suite saw it. */
export interface ContractResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

/** Options of one request. */
export interface RequestOptions {
  /** Sent in the client's {@link ContractClient.keyHeader}; `null` sends no key. Default: the full key. */
  key?: string | null | undefined;
  headers?: Record<string, string> | undefined;
  body?: unknown;
  /**
   * The operationId of openapi.yaml the request is (validated against it in profile mode; the
   * decision a proxy's finding goes against). None for a request sent as no operation.
   */
  operationId?: keyof operations | undefined;
  /**
   * Sends the request to the target itself, past any proxy in between (see `directUrl`). Requests
   * with crafted credentials (`key: null`) always go direct.
   */
  direct?: boolean | undefined;
}

/** Errors Prism's proxy found in an exchange (`sl-violations` header), when it sits in between. */
function prismViolations(headers: Headers): string[] {
  const header = headers.get('sl-violations');
  if (!header) return [];
  try {
    const list = JSON.parse(header) as Array<{
      severity: string;
      message: string;
      location?: string[];
    }>;
    return list
      .filter((v) => v.severity === 'Error')
      .map((v) => `Prism: ${v.location?.join('.') ?? ''} ${v.message}`);
  } catch {
    return [`Prism: unreadable sl-violations header ${header.slice(0, 200)}`];
  }
}

/** How a deployment pushed back during a run: 429 or 503 with Retry-After, waited for. */
export interface Pushback {
  /** Answers that asked the suite to wait, and were waited for and retried. */
  waits: number;
  waitedMs: number;
  /** Answers whose Retry-After was longer than the suite waits: returned as they were. */
  notWaited: number;
}

/** How several clients of one run were pushed back, in all. */
export function totalPushback(clients: ReadonlyArray<{ pushback: Pushback }>): Pushback {
  return clients.reduce(
    (sum, client) => ({
      waits: sum.waits + client.pushback.waits,
      waitedMs: sum.waitedMs + client.pushback.waitedMs,
      notWaited: sum.notWaited + client.pushback.notWaited,
    }),
    { waits: 0, waitedMs: 0, notWaited: 0 },
  );
}

/** The longest one Retry-After the suite honours, and how often it retries one request. */
const MAX_WAIT_MS = 10_000;
const MAX_RETRIES = 3;

/** A Retry-After header in milliseconds (delta-seconds or an HTTP date), if it is one. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // @note An HTTP-date names its day ("Wed, 25 Nov 2026 12:00:05 GMT"): Date.parse alone would
  // also read "-1" or "1.5" as dates.
  if (!/^[A-Za-z]{3},? /.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** At most `limit` tasks at once; the rest wait their turn in order. */
class Gate {
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  constructor(readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((go) => this.#waiting.push(go));
    else this.#active += 1;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}

/** One exchange, kept for the report. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  violations: string[];
}

/**
 * The suite's HTTP client. Every response of a known operation is validated against
 * `openapi.yaml` (documented status, content type, required headers, body schema) unless the run
 * is at the spec level; a violation fails the check that made the request.
 */
export class ContractClient {
  readonly exchanges: Exchange[] = [];
  /**
   * URLs of other origins than --base-url's that the target led the suite to (a next link
   * followed without any credential, a redirect never followed): reported.
   */
  readonly foreignRequests: string[] = [];
  /** The origins keys go to: --base-url's, and the target's own behind a proxy (--via-prism). */
  readonly #home: ReadonlySet<string>;
  /**
   * How the suite presents its own key: `Authorization: Bearer` unless the target accepts only
   * the other stated form (the preflight switches it; the header checks report the refusal).
   */
  keyHeader: 'authorization' | 'x-answers-api-key' = 'authorization';
  readonly pushback: Pushback = { waits: 0, waitedMs: 0, notWaited: 0 };
  /** Requests sent, each attempt counted (a retry after a 429 too). */
  sent = 0;
  /** Requests in flight at once (`--concurrency`). */
  readonly #gate: Gate;
  /** Aborted by the first SIGINT or SIGTERM: no request is sent or waited for after it. */
  #stop: AbortSignal | undefined;
  /**
   * Aborted when the run stops (`#stop`) or the target stalls: every request in flight and any
   * Retry-After wait ends with it.
   * @note Each request owns its deadline (a timer and a controller of its own, referenced until
   * its body is read or it failed) and listens here. `AbortSignal.any` over
   * `AbortSignal.timeout` is not used: on Node 20 the combined signal, which fetch holds only
   * weakly, is garbage-collected during a long wait and then never aborts, and a target that
   * went silent held the run until it was killed (issue 46).
   */
  #ending = new AbortController();
  /** When the clean-up's time is up (epoch ms), while cleaning up after an interruption. */
  #deadlineAt = Infinity;
  /** In the clean-up: a stalled request fails alone, and the clean-up goes on to its deadline. */
  #cleaning = false;
  /** The stall that ended the run: no request is sent after it until the clean-up begins. */
  #blocked: TargetStalled | undefined;
  /** The first request that got no whole answer within `timeoutMs`, if any (the run's end). */
  stalledBy: TargetStalled | undefined;
  /** The longest body read from one answer; past it the request fails (`--max-body`). */
  maxBodyBytes: number = LIMITS.maxBodyBytes;
  /** The most items one walk of a list collects (`--max-walk-items`). */
  maxWalkItems: number = LIMITS.maxWalkItems;

  constructor(
    readonly baseUrl: string,
    readonly defaultKey: string,
    readonly validate: boolean,
    /**
     * The target itself, for requests no proxy can pass on faithfully: crafted or missing
     * credentials (`key: null`) and requests marked `direct`.
     * @note Set under --via-prism. Prism's proxy answers some requests itself instead of
     * forwarding them: every request that fails its own security check (its own 401 body,
     * stoplightio/prism#1827), a method the document does not list (405 without Allow), and a
     * body it cannot parse (its own 400).
     */
    readonly directUrl: string = baseUrl,
    readonly timeoutMs: number = LIMITS.requestTimeoutMs,
    concurrency = 1,
  ) {
    this.#home = new Set([new URL(baseUrl).origin, new URL(directUrl).origin]);
    this.#gate = new Gate(Math.max(1, concurrency));
  }

  /** Gives up every request once `signal` is aborted (the run was interrupted). */
  stopOn(signal: AbortSignal | undefined): void {
    this.#stop = signal;
    this.#deadlineAt = Infinity;
    this.#cleaning = false;
    this.#freshEnding();
    signal?.addEventListener(
      'abort',
      () => {
        if (this.#stop === signal) this.#ending.abort(signal.reason);
      },
      { once: true },
    );
  }

  /** Whether the run was interrupted, or the target stalled. */
  get stopped(): boolean {
    return this.#stop?.aborted === true || this.#blocked !== undefined;
  }

  /**
   * For the clean-up: requests are no longer given up when the run is interrupted (a signal that
   * comes while a clean-up runs must not cut it short) or when the target stalled; after an
   * interruption, until `deadlineMs` has passed, then every request fails at once.
   * @note The deadline only ever comes closer: lanes that clean up one after another, and the
   * look for leftovers after them, share the one deadline the interruption started.
   */
  cleaningUp(deadlineMs?: number): void {
    this.#stop = undefined;
    this.#blocked = undefined;
    this.#cleaning = true;
    this.#deadlineAt =
      deadlineMs === undefined ? Infinity : Math.min(this.#deadlineAt, Date.now() + deadlineMs);
    this.#freshEnding();
  }

  /** A new `#ending` once the last one was used: requests in flight keep listening to theirs. */
  #freshEnding(): void {
    if (this.#ending.signal.aborted) this.#ending = new AbortController();
  }

  /** Throws `Interrupted` once the run was interrupted, and the stall once the target stalled. */
  #checkStopped(): void {
    if (this.#stop?.aborted) throw new Interrupted(String(this.#stop.reason ?? 'a signal'));
    if (this.#blocked) throw this.#blocked;
  }

  /**
   * Sends one attempt of a request and reads its whole body, within the request's deadline (or
   * what is left of the clean-up's, when that is sooner).
   */
  async #exchange(
    url: string,
    init: RequestInit,
    request: string,
  ): Promise<{ response: Response; text: string }> {
    this.#checkStopped();
    const left = this.#deadlineAt - Date.now();
    if (left <= 0)
      throw new CheckFailure(`${request}: not sent: the clean-up's deadline had passed`);
    this.sent += 1;
    const byCleanUp = left < this.timeoutMs;
    const controller = new AbortController();
    let late = false;
    // @note One timer for the exchange as a whole, headers and body: a body trickled a byte at a
    // time ends at the deadline too. Cleared as soon as the body is read or the request failed.
    const timer = setTimeout(
      () => {
        if (controller.signal.aborted) return;
        late = true;
        controller.abort(new Error(`no whole answer within ${seconds(this.timeoutMs)}`));
      },
      Math.min(left, this.timeoutMs),
    );
    const ending = this.#ending.signal;
    const end = () => controller.abort(ending.reason);
    ending.addEventListener('abort', end, { once: true });
    try {
      const response = await fetch(url, { ...init, signal: controller.signal });
      return { response, text: await readBody(response, this.maxBodyBytes, request) };
    } catch (error) {
      if (!late) throw error;
      if (byCleanUp) throw new CheckFailure(`${request}: no answer before the clean-up's deadline`);
      const stalled = new TargetStalled(request, this.timeoutMs);
      // @note In the clean-up the request fails alone: its deadline bounds the rest.
      if (this.#cleaning) throw new CheckFailure(`${request}: no response (${stalled.message})`);
      this.stalledBy ??= stalled;
      this.#blocked ??= stalled;
      this.#ending.abort(stalled);
      throw this.#blocked;
    } finally {
      clearTimeout(timer);
      ending.removeEventListener('abort', end);
    }
  }

  /** Whether `url` is on an origin the suite sends keys to. */
  isHome(url: string): boolean {
    return this.#home.has(new URL(url).origin);
  }

  async request(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ContractResponse> {
    const base = options.key === null || options.direct ? this.directUrl : this.baseUrl;
    // @note A target that pages by links hands out absolute URLs: those are followed as they are.
    const url = /^https?:\/\//i.test(path) ? path : `${base.replace(/\/$/, '')}${path}`;
    const credentials = ['authorization', 'x-answers-api-key'];
    const headers: Record<string, string> = { accept: 'application/json' };
    // @note Keys go to --base-url's origin only: a link to any other origin is requested with no
    // credential at all, whatever the caller asked (a staging run must not hand its key to
    // production). Checks that walk links refuse such links before they get here.
    const home = this.isHome(url);
    for (const [name, value] of Object.entries(options.headers ?? {}))
      if (home || !credentials.includes(name.toLowerCase())) headers[name] = value;
    if (!home) this.foreignRequests.push(url);
    const key = !home ? null : options.key === undefined ? this.defaultKey : options.key;
    if (key !== null && !Object.keys(headers).some((h) => credentials.includes(h.toLowerCase()))) {
      if (this.keyHeader === 'authorization') headers.authorization = `Bearer ${key}`;
      else headers['x-answers-api-key'] = key;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    // @note Redirects are never followed: one to another origin would carry the key there.
    const init: RequestInit = { method, headers, body, redirect: 'manual' };
    const send = () => this.#exchange(url, init, `${method} ${path}`);
    let exchange: { response: Response; text: string };
    this.#checkStopped();
    try {
      exchange = await this.#gate.run(send);
      for (let retry = 0; retry < MAX_RETRIES; retry++) {
        const { status, headers: answered } = exchange.response;
        if (status !== 429 && status !== 503) break;
        const wait = retryAfterMs(answered.get('retry-after'));
        if (wait === undefined) break;
        if (wait > MAX_WAIT_MS) {
          this.pushback.notWaited += 1;
          throw new CheckSkipped(
            `${method} ${path} answered ${status} and asked to wait ${Math.round(wait / 1000)} s (Retry-After), longer than the suite waits (${MAX_WAIT_MS / 1000} s): not judged`,
          );
        }
        this.pushback.waits += 1;
        this.pushback.waitedMs += wait;
        await sleep(wait, undefined, { signal: this.#ending.signal });
        exchange = await this.#gate.run(send);
      }
    } catch (error) {
      this.#checkStopped();
      if (error instanceof CheckSkipped || error instanceof CheckFailure) throw error;
      if (error instanceof TargetStalled) throw error;
      throw new CheckFailure(`${method} ${path}: no response (${(error as Error).message})`);
    }
    const { response, text } = exchange;
    // @note A 429 the suite was not asked to wait for is the deployment's limit, not an answer
    // to judge: the check skips, saying so (--concurrency 1 sends fewer requests at once).
    if (response.status === 429)
      throw new CheckSkipped(
        `${method} ${path} answered 429 (too many requests) without a Retry-After the suite can wait for: not judged; try a lower --concurrency`,
      );
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      // @note Redirects are never followed (a key would go along); one to another origin is
      // reported as such, naming it.
      const to = new URL(location, url).href;
      if (!this.isHome(to)) {
        this.foreignRequests.push(to);
        throw new CheckFailure(
          `${method} ${path} answered ${response.status}, a redirect to another origin, ${new URL(to).origin} (${to}): not followed; keys go to ${new URL(this.baseUrl).origin} only`,
        );
      }
    }
    // @note Parsed when first read: most answers are judged by their status alone (every auth
    // check's), and parsing each page of a hostile list of 100,000 items anyway held 317 MB.
    const json = lazyJson(text, `${method} ${path}`);
    const violations: Violation[] =
      this.validate && options.operationId
        ? responseViolations(options.operationId, {
            status: response.status,
            headers: response.headers,
            body: text,
          })
        : [];
    const decision = options.operationId && bodyDecision(options.operationId, response.status);
    for (const message of prismViolations(response.headers))
      violations.push({ clause: decision || undefined, message });
    const messages = violations.map(({ message }) => message);
    this.exchanges.push({ method, path, status: response.status, violations: messages });
    if (violations.length > 0) {
      // @note The first violation names the decision the answer goes against.
      throw new CheckFailure(
        `${method} ${path} -> ${response.status} breaks openapi.yaml: ${messages.join('; ')}`,
        violations[0]!.clause,
      );
    }
    return {
      status: response.status,
      headers: response.headers,
      text,
      get json() {
        return json.value;
      },
    };
  }
}

/**
 * A body as text, read up to `max` bytes: an endless or huge answer fails the request it belongs
 * to, with the limit named, instead of growing the process without bound.
 */
async function readBody(response: Response, max: number, request: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel();
    throw new CheckFailure(bodyTooLong(request, max, ` (its Content-Length says ${declared})`));
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let read = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    read += chunk.byteLength;
    if (read > max) {
      await response.body.cancel().catch(() => undefined);
      throw new CheckFailure(bodyTooLong(request, max, ''));
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, read).toString('utf8');
}

function bodyTooLong(request: string, max: number, declared: string): string {
  return `${request}: the answer's body is longer than the ${max} bytes the suite reads${declared}: not read further (--max-body-bytes raises the limit)`;
}

/** What an answer too deep to read stands for once it was parsed (the parsed value is dropped). */
const tooDeep = Symbol('too deep');

/**
 * A body's JSON, parsed the first time it is read (undefined when it is not JSON). An answer that
 * nests deeper than `LIMITS.maxAnswerDepth` fails whoever reads it, naming the depth.
 * @note Checked here, where every answer of the suite, explore and replay is parsed: printed or
 * compared further on, such an answer overflowed the stack ("Maximum call stack size exceeded").
 */
function lazyJson(text: string, request: string): { readonly value: unknown } {
  let parsed: { value: unknown } | undefined;
  return {
    get value() {
      if (!parsed) {
        try {
          parsed = { value: text ? (JSON.parse(text) as unknown) : undefined };
        } catch {
          parsed = { value: undefined };
        }
        if (nestsDeeperThan(parsed.value, LIMITS.maxAnswerDepth)) parsed = { value: tooDeep };
      }
      if (parsed.value === tooDeep)
        throw new CheckFailure(
          `${request}: the answer nests objects and arrays deeper than ${LIMITS.maxAnswerDepth} levels: not read`,
        );
      return parsed.value;
    },
  };
}
