import net from 'node:net';

/** A response read off the wire. `status` is 0 when the server closed without answering. */
export interface RawResponse {
  status: number;
  /** Header names lower-case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** Why no response was read, when `status` is 0 (e.g. "closed", "ECONNRESET"). */
  error?: string | undefined;
}

/** What to send: the request head is built from these parts, byte for byte. */
export interface RawRequestSpec {
  method: string;
  /** The request target, as is (no encoding is applied); bytes for non-ASCII targets. */
  target: string | Uint8Array;
  /** Header lines in order; a name may repeat. Values may be raw bytes. */
  headers?: ReadonlyArray<readonly [string, string | Uint8Array]>;
  /** A body sent as is; `Content-Length` is added unless `chunked` or a header sets it. */
  body?: string | Uint8Array | undefined;
  /** Sends the body with `Transfer-Encoding: chunked` and no `Content-Length`. */
  chunked?: boolean | undefined;
  /** Streams this many bytes of `x` as a chunked body (no `Content-Length`), stopping early once a response has arrived. */
  streamBytes?: number | undefined;
  /** Default `HTTP/1.1`. */
  version?: string | undefined;
  /** Leaves out the `Host` header (added by default). */
  noHost?: boolean | undefined;
  /** Sends these bytes instead of the head built from the fields above (e.g. an unfinished head). */
  head?: string | Uint8Array | undefined;
}

export interface RawOptions {
  /** Gives up (and rejects) after this many ms. Default 5,000. */
  timeoutMs?: number | undefined;
}

const CRLF = '\r\n';

function bytes(value: string | Uint8Array): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from(value);
}

/** A body as bytes: strings as UTF-8 (header values and targets are latin1, byte for byte). */
function bodyBytes(value: string | Uint8Array): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
}

/** Builds the request head (request line and header section) of a spec. */
function requestHead(spec: RawRequestSpec, host: string): Buffer {
  const headers = [...(spec.headers ?? [])];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!spec.noHost && !has('host')) headers.unshift(['Host', host]);
  if (spec.chunked || spec.streamBytes !== undefined) {
    if (!has('transfer-encoding')) headers.push(['Transfer-Encoding', 'chunked']);
  } else if (spec.body !== undefined && !has('content-length')) {
    headers.push(['Content-Length', String(bodyBytes(spec.body).length)]);
  }
  const parts: Buffer[] = [
    bytes(`${spec.method} `),
    bytes(spec.target),
    bytes(` ${spec.version ?? 'HTTP/1.1'}${CRLF}`),
  ];
  for (const [name, value] of headers) parts.push(bytes(`${name}: `), bytes(value), bytes(CRLF));
  parts.push(bytes(CRLF));
  return Buffer.concat(parts);
}

/** Parses one response out of `data`; undefined while it is incomplete. */
function parseResponse(
  data: Buffer,
  method: string,
  ended: boolean,
): { response: RawResponse; rest: Buffer } | undefined {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const lines = data.subarray(0, headEnd).toString('latin1').split(CRLF);
  const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const start = headEnd + 4;
  const done = (body: Buffer, end: number) => ({
    response: { status, headers, body, text: body.toString('utf8') },
    rest: data.subarray(end),
  });
  if (status >= 100 && status < 200) return done(Buffer.alloc(0), start);
  if (method === 'HEAD' || status === 204 || status === 304) return done(Buffer.alloc(0), start);
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    const chunks: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = data.indexOf(CRLF, at);
      if (lineEnd === -1) return undefined;
      const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) return done(Buffer.concat(chunks), data.length);
      if (size === 0) {
        const trailerEnd = data.indexOf(CRLF, lineEnd + 2);
        return trailerEnd === -1 ? undefined : done(Buffer.concat(chunks), trailerEnd + 2);
      }
      if (data.length < lineEnd + 2 + size + 2) return undefined;
      chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (data.length < start + length) return undefined;
    return done(data.subarray(start, start + length), start + length);
  }
  // @note No framing: the body runs to the end of the connection.
  return ended ? done(data.subarray(start), data.length) : undefined;
}

/**
 * Sends one raw HTTP/1.x request over `node:net` and reads one final response (1xx responses
 * are skipped). Always closes the socket; rejects only when `timeoutMs` passes first.
 */
export function rawRequest(
  url: string,
  spec: RawRequestSpec,
  options: RawOptions = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const host = `${hostname}:${port}`;
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise<RawResponse>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received: Buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: { response?: RawResponse; error?: Error }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome.error) reject(outcome.error);
      else resolve(outcome.response!);
    };
    const timer = setTimeout(
      () =>
        finish({
          error: new Error(`raw ${spec.method} request got no response within ${timeoutMs} ms`),
        }),
      timeoutMs,
    );
    const tryParse = (ended: boolean) => {
      for (;;) {
        const parsed = parseResponse(received, spec.method, ended);
        if (!parsed) return;
        received = parsed.rest;
        if (parsed.response.status >= 200 || parsed.response.status === 0) {
          finish({ response: parsed.response });
          return;
        }
      }
    };
    const closedEarly = (why: string) => {
      tryParse(true);
      finish({
        response: { status: 0, headers: {}, body: received, text: '', error: why },
      });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse(false);
    });
    socket.on('end', () => closedEarly('closed'));
    socket.on('close', () => closedEarly('closed'));
    socket.on('error', (error: NodeJS.ErrnoException) => closedEarly(error.code ?? error.message));
    socket.on('connect', () => {
      void send().catch(() => {
        // @note The server may close the connection while we are still writing (e.g. after a 413).
      });
    });

    const write = (data: Buffer) =>
      new Promise<void>((done) => {
        if (settled || socket.destroyed) return done();
        if (socket.write(data)) done();
        else socket.once('drain', () => done());
      });

    async function send() {
      await write(spec.head === undefined ? requestHead(spec, host) : bytes(spec.head));
      if (spec.streamBytes !== undefined) {
        const piece = Buffer.alloc(64 * 1024, 'x');
        for (let left = spec.streamBytes; left > 0 && !settled; left -= piece.length) {
          const chunk = left >= piece.length ? piece : piece.subarray(0, left);
          await write(
            Buffer.concat([bytes(`${chunk.length.toString(16)}${CRLF}`), chunk, bytes(CRLF)]),
          );
        }
        await write(bytes(`0${CRLF}${CRLF}`));
      } else if (spec.body !== undefined) {
        const body = bodyBytes(spec.body);
        if (spec.chunked) {
          const head = body.length > 0 ? `${body.length.toString(16)}${CRLF}` : '';
          await write(
            Buffer.concat([
              bytes(head),
              body,
              bytes(body.length > 0 ? CRLF : ''),
              bytes(`0${CRLF}${CRLF}`),
            ]),
          );
        } else {
          await write(body);
        }
      }
    }
  });
}
