/**
 * The bench's load generator, in a process of its own (pinned to its own core when the machine
 * allows): keep-alive connections over raw sockets, each sending one request, waiting for the
 * whole response, then sending the next (the run's requests taken in turn), and timing each with
 * `performance.now()` (microseconds; autocannon's histogram counts whole milliseconds). Bounded
 * in count and in time. It also reads the server's CPU time from `/proc/<pid>/stat` at the start
 * and end of the measured window.
 *
 * Driven over the IPC channel: each {@link LoadRun} message is answered with a {@link LoadResult}.
 * @note Raw sockets and precomputed request bytes, not `node:http`'s client: the generator must
 * be cheaper per request than the cheapest server it drives, or it measures itself.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** One measurement: one request shape against one server. */
export interface LoadRun {
  port: number;
  /**
   * The whole requests, bytes as sent (head and body), sent in rotation: the run's i-th request,
   * counted over all connections, is `requests[i mod length]`, so consecutive requests ask
   * different targets whatever connection sends them. Most runs have one.
   */
  requests: string[];
  /** The status every response should have; others are counted as unexpected. */
  status: number;
  connections: number;
  warmupMs: number;
  durationMs: number;
  maxRequests: number;
  /** The server's pid, for its CPU time; 0 when unknown. */
  serverPid: number;
}

/** What one {@link LoadRun} measured. */
export interface LoadResult {
  requests: number;
  seconds: number;
  errors: number;
  unexpected: number;
  /** Response bytes (head and body) of the last response. */
  responseBytes: number;
  latencyUs: { p50: number; p90: number; p99: number; max: number };
  /** Server CPU time (user + system, all threads) over the measured window, in microseconds; -1 unknown. */
  serverCpuUs: number;
  /** This generator's own CPU time over the window, in microseconds. */
  generatorCpuUs: number;
}

const TICK_US = 10_000; // @note USER_HZ is 100 on Linux: /proc/<pid>/stat counts 10 ms ticks.

/** utime + stime of a process, in microseconds, or -1 when /proc cannot tell. */
function cpuOf(pid: number): number {
  if (pid <= 0) return -1;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // @note The command name (field 2) may hold spaces: count fields after its closing paren.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US;
  } catch {
    return -1;
  }
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/**
 * The length of the first complete response in `buffer` and its status, or undefined when more
 * bytes are needed. Understands Content-Length and chunked bodies.
 */
function completeResponse(buffer: Buffer): { length: number; status: number } | undefined {
  const headEnd = buffer.indexOf(CRLFCRLF);
  if (headEnd === -1) return undefined;
  const status = (buffer[9]! - 48) * 100 + (buffer[10]! - 48) * 10 + (buffer[11]! - 48);
  const head = buffer.toString('latin1', 0, headEnd).toLowerCase();
  const bodyStart = headEnd + 4;
  const lengthAt = head.indexOf('\r\ncontent-length:');
  if (lengthAt !== -1) {
    const length = parseInt(head.slice(lengthAt + 17), 10);
    return buffer.length >= bodyStart + length ? { length: bodyStart + length, status } : undefined;
  }
  if (!head.includes('\r\ntransfer-encoding: chunked')) return { length: bodyStart, status };
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    const next = lineEnd + 2 + size + 2;
    if (buffer.length < next) return undefined;
    if (size === 0) return { length: next, status };
    at = next;
  }
}

function run(options: LoadRun): Promise<LoadResult> {
  const requests = options.requests.map((request) => Buffer.from(request, 'latin1'));
  let turn = 0;
  const latencies = new Float64Array(options.maxRequests);
  let recorded = 0;
  let errors = 0;
  let unexpected = 0;
  let responseBytes = 0;
  let measuring = false;
  let stopping = false;
  let measureStart = 0;
  let measureEnd = 0;
  let cpuStart = 0;
  let ownCpuStart = { user: 0, system: 0 };
  const sockets: net.Socket[] = [];

  return new Promise((resolve) => {
    const finish = () => {
      if (stopping) return;
      stopping = true;
      measureEnd = performance.now();
      const serverCpu = cpuOf(options.serverPid);
      const ownCpu = process.cpuUsage(ownCpuStart);
      clearTimeout(deadline);
      for (const socket of sockets) socket.destroy();
      const sorted = latencies.subarray(0, recorded).sort();
      const at = (q: number) => sorted[Math.min(recorded - 1, Math.floor(recorded * q))] ?? 0;
      resolve({
        requests: recorded,
        seconds: (measureEnd - measureStart) / 1000,
        errors,
        unexpected,
        responseBytes,
        latencyUs: {
          p50: at(0.5) * 1000,
          p90: at(0.9) * 1000,
          p99: at(0.99) * 1000,
          max: (sorted[recorded - 1] ?? 0) * 1000,
        },
        serverCpuUs: serverCpu < 0 || cpuStart < 0 ? -1 : serverCpu - cpuStart,
        generatorCpuUs: ownCpu.user + ownCpu.system,
      });
    };
    const deadline = setTimeout(finish, options.warmupMs + options.durationMs + 10_000);
    setTimeout(() => {
      measuring = true;
      measureStart = performance.now();
      cpuStart = cpuOf(options.serverPid);
      ownCpuStart = process.cpuUsage();
      setTimeout(finish, options.durationMs);
    }, options.warmupMs);

    const connect = () => {
      const socket = net.connect(options.port, '127.0.0.1');
      socket.setNoDelay(true);
      sockets.push(socket);
      let pending: Buffer | undefined;
      let sentAt = 0;
      let countsThis = false;
      const send = () => {
        if (stopping) return;
        countsThis = measuring;
        sentAt = performance.now();
        socket.write(requests[turn]!);
        turn = turn + 1 === requests.length ? 0 : turn + 1;
      };
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        pending = pending ? Buffer.concat([pending, chunk]) : chunk;
        for (;;) {
          const response = completeResponse(pending);
          if (!response) return;
          const took = performance.now() - sentAt;
          if (response.status !== options.status) unexpected += 1;
          responseBytes = response.length;
          pending =
            response.length < pending.length ? pending.subarray(response.length) : undefined;
          if (countsThis && !stopping) {
            latencies[recorded++] = took;
            if (recorded === options.maxRequests) return finish();
          }
          if (pending) continue;
          send();
          return;
        }
      });
      socket.on('error', () => {
        errors += 1;
      });
      socket.on('close', () => {
        if (!stopping) setTimeout(connect, 10);
      });
    };
    for (let i = 0; i < options.connections; i++) connect();
  });
}

process.on('message', (message: LoadRun) => {
  void run(message).then((result) => process.send!(result));
});
