import { validateResponse } from '../openapi/response-validation.ts';
import { CheckFailure } from './failure.ts';

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
  /** The operationId of openapi.yaml the response is validated against (profile mode only). */
  operationId?: string | undefined;
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
 * is `--spec-only`; a violation fails the check that made the request.
 */
export class ContractClient {
  readonly exchanges: Exchange[] = [];
  /**
   * How the suite presents its own key: `Authorization: Bearer` unless the target accepts only
   * the other stated form (the preflight switches it; the header checks report the refusal).
   */
  keyHeader: 'authorization' | 'x-answers-api-key' = 'authorization';

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
    readonly timeoutMs = 10_000,
  ) {}

  async request(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ContractResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const key = options.key === undefined ? this.defaultKey : options.key;
    const credentials = ['authorization', 'x-answers-api-key'];
    if (key !== null && !Object.keys(headers).some((h) => credentials.includes(h.toLowerCase()))) {
      if (this.keyHeader === 'authorization') headers.authorization = `Bearer ${key}`;
      else headers['x-answers-api-key'] = key;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const base = options.key === null || options.direct ? this.directUrl : this.baseUrl;
    // @note A target that pages by links hands out absolute URLs: those are followed as they are.
    const url = /^https?:\/\//i.test(path) ? path : `${base.replace(/\/$/, '')}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
    } catch (error) {
      throw new CheckFailure(`${method} ${path}: no response (${(error as Error).message})`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const violations =
      this.validate && options.operationId
        ? validateResponse(options.operationId, {
            status: response.status,
            headers: response.headers,
            body: text,
          })
        : [];
    violations.push(...prismViolations(response.headers));
    this.exchanges.push({ method, path, status: response.status, violations });
    if (violations.length > 0) {
      throw new CheckFailure(
        `${method} ${path} -> ${response.status} breaks openapi.yaml: ${violations.join('; ')}`,
      );
    }
    return { status: response.status, headers: response.headers, text, json };
  }
}
