/**
 * The express 5 baseline: the stub a frontend team writes by hand, `res.json` of fixed records
 * with express's defaults (ETag, X-Powered-By), a presence check of the key, and the same CORS
 * header fields as the mock. Serves the bodies the mock answered (recorded-answers.ts): the page,
 * and each collection recorded (the one, and those of the rotation) by id.
 * Prints `listening <url>`. Usage: express-stub-run.ts <answers.json>.
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import type { RecordedAnswer } from './recorded-answers.ts';

const PREFIX = '/api/answers/v1';
const recorded = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RecordedAnswer[];
// @note Only the shapes measured were recorded (`only`): each route serves what it has.
const answersTo = (...names: string[]) =>
  recorded.filter((answer) => names.includes(answer.name) && answer.status === 200);
const [pageAnswer] = answersTo('page');
const page = pageAnswer && (JSON.parse(pageAnswer.body) as { data: Array<{ id: string }> });
const collections = answersTo('one', 'rotation').map(
  (answer) => JSON.parse(answer.body) as { id: string },
);
const refused = recorded.find((answer) => answer.name === 'refused');
const byId = new Map([...(page?.data ?? []), ...collections].map((record) => [record.id, record]));
// @note The mock sends the same CORS fields with every answer.
const cors = {
  'access-control-allow-origin': recorded[0]!.headers['access-control-allow-origin']!,
  'access-control-expose-headers': recorded[0]!.headers['access-control-expose-headers']!,
};

const app = express();
app.use((req, res, next) => {
  res.set(cors);
  if (req.get('authorization') === undefined && req.get('x-answers-api-key') === undefined) {
    if (!refused) {
      res.sendStatus(401);
      return;
    }
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
  if (page) res.json(page);
  else res.status(404).json({ code: 'not_recorded' });
});
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`listening http://127.0.0.1:${port}`);
});
server.keepAliveTimeout = 5_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
