/**
 * The practical limit: a bare node:http server answering every request with the same 1 KB JSON
 * body. Prints `listening <url>` when ready.
 */
import http from 'node:http';

const body = JSON.stringify({ data: 'x'.repeat(1000 - 11) });
const server = http.createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`listening http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
