/**
 * The practical limit: a bare node:http server answering each request shape with the bytes the
 * mock answered it with (status, header fields and body, recorded before the run and precomputed
 * here), looked up by method and target. Framed with Content-Length. Prints `listening <url>`.
 * Usage: bare-server-run.ts <answers.json> (see recorded-answers.ts).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { RecordedAnswer } from './recorded-answers.ts';

const recorded = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RecordedAnswer[];
const answers = new Map(
  recorded.map((answer) => {
    const body = Buffer.from(answer.body);
    const headers = { ...answer.headers, 'content-length': String(body.length) };
    return [`${answer.method} ${answer.target}`, { status: answer.status, headers, body }];
  }),
);
const missing = { status: 404, headers: { 'content-length': '0' }, body: Buffer.alloc(0) };

const server = http.createServer((request, response) => {
  const answer = answers.get(`${request.method} ${request.url}`) ?? missing;
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`listening http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
