/**
 * The Node server's own CPU per request, without sockets: the mock's real `createServer` (or a
 * bare `node:http` server answering the same bytes) is handed an in-memory connection, which
 * feeds it one request after another and takes its answers. No system call, no load generator
 * and no other process share the measurement, so it moves far less from run to run than the
 * loopback bench: it is the judge of what a change to the server's code costs or saves.
 * Usage: server-cpu-run.ts <mock|bare> <one|page|refused>; prints one JSON line.
 */
import http from 'node:http';
import { Duplex } from 'node:stream';
import { assemble } from '../../src/assemble.ts';
import { createServer } from '../../src/node/server.ts';

const [server = 'mock', shape = 'one'] = process.argv.slice(2);
const WARMUP = 20_000;
const PER_ROUND = 30_000;
const ROUNDS = 7;

const { mock, state } = await assemble();
const store = state.store;
const collection = store.collectionsOf('acme').find((c) => store.objectCount(c.id) > 0)!;
const target = {
  one: `/api/answers/v1/collections/${collection.id}`,
  page: '/api/answers/v1/collections?limit=10',
  refused: '/api/answers/v1/collections',
}[shape]!;
const key = shape === 'refused' ? '' : 'Authorization: Bearer answers_test_full_acme\r\n';
const request = Buffer.from(
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:4010\r\n${key}Accept: */*\r\n\r\n`,
);

// @note The bare server answers with the mock's own bytes, taken from the mock before the run.
const { response: recorded } = await mock.handle({
  method: 'GET',
  path: target.split('?')[0]!,
  query: new URLSearchParams(target.split('?')[1] ?? ''),
  headers: new Headers(key ? { authorization: 'Bearer answers_test_full_acme' } : {}),
});
const body = Buffer.from(recorded.body ?? '');
const headers = { ...recorded.headers, 'content-length': String(body.length) };
const app =
  server === 'bare'
    ? http.createServer((_, res) => {
        res.writeHead(recorded.status, headers);
        res.end(body);
      })
    : createServer(mock, { quiet: true, listenHost: '127.0.0.1' });

/** A connection that sends the next request once the answer to the last one is written. */
class Connection extends Duplex {
  remoteAddress = '127.0.0.1';
  left = 0;
  done: () => void = () => {};
  _read() {}
  _write(_: unknown, __: unknown, callback: () => void) {
    callback();
    this.#answered();
  }
  _writev(_: unknown, callback: () => void) {
    callback();
    this.#answered();
  }
  #answered() {
    this.left -= 1;
    if (this.left > 0) setImmediate(() => this.push(request));
    else if (this.left === 0) this.done();
  }
  setTimeout() {
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
}
const connection = new Connection();
app.emit('connection', connection);
const run = (count: number) =>
  new Promise<void>((resolve) => {
    connection.left = count;
    connection.done = resolve;
    connection.push(request);
  });

await run(WARMUP);
const microseconds: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const before = process.cpuUsage();
  await run(PER_ROUND);
  const used = process.cpuUsage(before);
  microseconds.push((used.user + used.system) / PER_ROUND);
}
microseconds.sort((a, b) => a - b);
console.log(JSON.stringify({ min: microseconds[0], median: microseconds[ROUNDS >> 1] }));
process.exit(0);
