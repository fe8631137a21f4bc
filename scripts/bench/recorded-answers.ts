/**
 * The request shapes of the throughput bench and the mock's answers to them, recorded once before
 * the run so the baselines serve the same bytes: the bare server replays them, the express stub
 * and json-server serve the same records.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY } from './settings.ts';

const PREFIX = '/api/answers/v1';

/** One request shape, as the mock is asked it. */
export interface Shape {
  name: 'one' | 'page' | 'refused' | 'object' | 'search';
  title: string;
  method: 'GET' | 'POST';
  target: string;
  key: boolean;
  body?: string | undefined;
  /** The same request to json-server's routes, where it has one. */
  jsonServer?: string | undefined;
  /** The same request to Prism's mock of openapi.yaml (no prefix, its example ids). */
  prism?: string | undefined;
}

/** The mock's answer to one shape, without the fields Node writes itself (framing, date). */
export interface RecordedAnswer {
  name: Shape['name'];
  method: string;
  target: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How many collections the caller has during the run, so a page of 10 has a next page. */
const COLLECTIONS = 12;

export function shapes(collectionId: string, objectId: string): Shape[] {
  const prismCollection = 'col_8f3k2m9q1x7v4b6n0p5r';
  return [
    {
      name: 'one',
      title: 'get one collection',
      method: 'GET',
      target: `${PREFIX}/collections/${collectionId}`,
      key: true,
      jsonServer: `/collections/${collectionId}`,
      prism: `/collections/${prismCollection}`,
    },
    {
      name: 'page',
      title: 'a page of 10 collections',
      method: 'GET',
      target: `${PREFIX}/collections?limit=10`,
      key: true,
      jsonServer: '/collections?_limit=10',
      prism: '/collections?limit=10',
    },
    {
      name: 'refused',
      title: '401 (no key)',
      method: 'GET',
      target: `${PREFIX}/collections`,
      key: false,
      prism: '/collections',
    },
    {
      name: 'object',
      title: 'get an object',
      method: 'GET',
      target: `${PREFIX}/collections/${collectionId}/objects/${objectId}`,
      key: true,
    },
    {
      name: 'search',
      title: 'search',
      method: 'POST',
      target: `${PREFIX}/search`,
      key: true,
      body: JSON.stringify({ query: 'billing security' }),
    },
  ];
}

/** The bytes of one request of `shape` to `target` on `port`. */
export function requestBytes(shape: Shape, target: string, port: number): string {
  let head = `${shape.method} ${target} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`;
  if (shape.key) head += `authorization: Bearer ${KEY}\r\n`;
  if (shape.body !== undefined) {
    head += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(shape.body)}\r\n`;
  }
  return `${head}\r\n${shape.body ?? ''}`;
}

/** Fields Node's http server writes on its own, for any server alike. */
const NODE_WRITES = new Set([
  'connection',
  'keep-alive',
  'date',
  'transfer-encoding',
  'content-length',
]);

function ask(url: string, shape: Shape, target = shape.target, body = shape.body) {
  return new Promise<RecordedAnswer>((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (shape.key) headers.authorization = `Bearer ${KEY}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request = http.request(
      `${url}${target}`,
      { method: shape.method, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const fields: Record<string, string> = {};
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            const name = response.rawHeaders[i]!;
            if (!NODE_WRITES.has(name.toLowerCase())) fields[name] = response.rawHeaders[i + 1]!;
          }
          resolve({
            name: shape.name,
            method: shape.method,
            target,
            status: response.statusCode!,
            headers: fields,
            body: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Gives the caller {@link COLLECTIONS} collections, records the mock's answer to every shape, and
 * writes the baselines' files into a fresh temporary folder: `answers.json` (for the bare server
 * and the express stub) and `db.json` (json-server's data: the same collections, in list order).
 */
export async function recordAnswers(
  url: string,
  list: Shape[],
): Promise<{ folder: string; answers: RecordedAnswer[] }> {
  const create: Shape = { ...list[0]!, method: 'POST', target: `${PREFIX}/collections` };
  const all: Shape = { ...list[0]!, target: `${PREFIX}/collections?limit=100` };
  const existing = JSON.parse((await ask(url, all)).body) as { data: unknown[] };
  for (let i = existing.data.length; i < COLLECTIONS; i++) {
    const created = await ask(url, create, create.target, JSON.stringify({ name: `bench ${i}` }));
    if (created.status !== 201) throw new Error(`creating a collection: ${created.body}`);
  }
  const answers: RecordedAnswer[] = [];
  for (const shape of list) answers.push(await ask(url, shape));
  const collections = (JSON.parse((await ask(url, all)).body) as { data: unknown[] }).data;
  const folder = await mkdtemp(join(tmpdir(), 'answers-bench-'));
  await writeFile(join(folder, 'answers.json'), JSON.stringify(answers));
  await writeFile(join(folder, 'db.json'), JSON.stringify({ collections }));
  return { folder, answers };
}
