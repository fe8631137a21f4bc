/**
 * The express 5 baseline: the stub a frontend team writes by hand, `res.json` of fixed records
 * with express's defaults (ETag, X-Powered-By), a presence check of the key, and the same CORS
 * header fields as the mock. Serves the bodies the mock answered (recorded-answers.ts).
 * Prints `listening <url>`. Usage: express-stub-run.ts <answers.json>.
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import type { RecordedAnswer } from './recorded-answers.ts';

const PREFIX = '/api/answers/v1';
const recorded = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RecordedAnswer[];
const answerTo = (name: string) => recorded.find((answer) => answer.name === name)!;
const page = JSON.parse(answerTo('page').body) as { data: Array<{ id: string }> };
const one = JSON.parse(answerTo('one').body) as { id: string };
const refused = answerTo('refused');
const byId = new Map([...page.data, one].map((record) => [record.id, record]));
const cors = {
  'access-control-allow-origin': refused.headers['access-control-allow-origin']!,
  'access-control-expose-headers': refused.headers['access-control-expose-headers']!,
};

const app = express();
app.use((req, res, next) => {
  res.set(cors);
  if (req.get('authorization') === undefined && req.get('x-answers-api-key') === undefined) {
    res
      .status(401)
      .set('www-authenticate', refused.headers['www-authenticate']!)
      .type('application/problem+json')
      .json(JSON.parse(refused.body));
    return;
  }
  next();
});
app.get(`${PREFIX}/collections/:id`, (req, res) => {
  const record = byId.get(req.params.id);
  if (record) res.json(record);
  else res.status(404).json({ code: 'collection_not_found' });
});
app.get(`${PREFIX}/collections`, (_req, res) => {
  res.json(page);
});
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`listening http://127.0.0.1:${port}`);
});
server.keepAliveTimeout = 5_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
