/**
 * The request shapes of the throughput bench and the mock's answers to them, recorded once before
 * the run so the baselines serve the same bytes: the bare server replays them, the express stub
 * and json-server serve the same records. A shape may ask several targets in rotation (the
 * rotation over the caller's collections), each answer recorded.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY } from './settings.ts';

const PREFIX = '/api/answers/v1';

/** The names of the request shapes of {@link shapes}. */
export const SHAPE_NAMES = ['one', 'page', 'refused', 'object', 'search', 'rotation'] as const;

/** One request shape, as the mock is asked it. */
export interface Shape {
  name: (typeof SHAPE_NAMES)[number];
  title: string;
  method: 'GET' | 'POST';
  /** The targets asked at the mock, in rotation: one for every shape but the rotation. */
  targets: readonly string[];
  key: boolean;
  body?: string | undefined;
  /** The same requests to json-server's routes, where it has them. */
  jsonServer?: readonly string[] | undefined;
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

/**
 * How many collections the rotation turns over: more than the mock keeps answers of
 * (src/core/read-cache.ts), so each of its requests takes the mock's uncached path.
 */
export const ROTATION = 1_000;
/**
 * How many collections the caller has during the run: a page of 10 has a next page, and the
 * rotation has its targets.
 */
const COLLECTIONS = ROTATION;

/**
 * The shapes, about `collectionId` (a collection with objects), `objectId` (one of them) and
 * `collectionIds`, the caller's collections in list order (see {@link giveCollections}).
 */
export function shapes(
  collectionId: string,
  objectId: string,
  collectionIds: readonly string[],
): Shape[] {
  const prismCollection = 'col_8f3k2m9q1x7v4b6n0p5r';
  const rotation = collectionIds.slice(0, ROTATION);
  return [
    {
      name: 'one',
      title: 'get one collection',
      method: 'GET',
      targets: [`${PREFIX}/collections/${collectionId}`],
      key: true,
      jsonServer: [`/collections/${collectionId}`],
      prism: `/collections/${prismCollection}`,
    },
    {
      name: 'page',
      title: 'a page of 10 collections',
      method: 'GET',
      targets: [`${PREFIX}/collections?limit=10`],
      key: true,
      jsonServer: ['/collections?_limit=10'],
      prism: '/collections?limit=10',
    },
    {
      name: 'refused',
      title: '401 (no key)',
      method: 'GET',
      targets: [`${PREFIX}/collections`],
      key: false,
      prism: '/collections',
    },
    {
      name: 'object',
      title: 'get an object',
      method: 'GET',
      targets: [`${PREFIX}/collections/${collectionId}/objects/${objectId}`],
      key: true,
    },
    {
      name: 'search',
      title: 'search',
      method: 'POST',
      targets: [`${PREFIX}/search`],
      key: true,
      body: JSON.stringify({ query: 'billing security' }),
    },
    {
      name: 'rotation',
      title: `get one of ${rotation.length.toLocaleString('en-US')} collections (rotation)`,
      method: 'GET',
      targets: rotation.map((id) => `${PREFIX}/collections/${id}`),
      key: true,
      jsonServer: rotation.map((id) => `/collections/${id}`),
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

/** A request of the caller's, for the set-up: to list and create collections. */
const keyed = { name: 'one', method: 'GET', key: true } as const;

function ask(
  url: string,
  shape: Pick<Shape, 'name' | 'method' | 'key'>,
  target: string,
  body?: string,
) {
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

/** A page of a list, as the mock answers it. */
interface Page {
  data: Array<{ id: string }>;
  next_cursor: string | null;
}

/** Every collection of the caller's, in list order, page after page. */
async function listCollections(url: string): Promise<Page['data']> {
  const collections: Page['data'] = [];
  let after = '';
  for (;;) {
    const answer = await ask(url, keyed, `${PREFIX}/collections?limit=100${after}`);
    const page = JSON.parse(answer.body) as Page;
    collections.push(...page.data);
    if (page.next_cursor === null) return collections;
    after = `&cursor=${encodeURIComponent(page.next_cursor)}`;
  }
}

/**
 * Gives the caller {@link COLLECTIONS} collections, created through the API as a client would
 * (so the mock of another checkout, given them the same way, holds the same ids), and returns
 * the ids of all the caller's collections in list order.
 */
export async function giveCollections(url: string): Promise<string[]> {
  const existing = await listCollections(url);
  const create = { ...keyed, method: 'POST' } as const;
  for (let i = existing.length; i < COLLECTIONS; i++) {
    const body = JSON.stringify({ name: `bench ${i}` });
    const created = await ask(url, create, `${PREFIX}/collections`, body);
    if (created.status !== 201) throw new Error(`creating a collection: ${created.body}`);
  }
  return (await listCollections(url)).map((collection) => collection.id);
}

/**
 * Records the mock's answer to every target of every shape, and writes the baselines' files into
 * a fresh temporary folder: `answers.json` (for the bare server and the express stub) and
 * `db.json` (json-server's data: all the caller's collections, in list order, as the mock holds
 * them). Run after {@link giveCollections}.
 */
export async function recordAnswers(
  url: string,
  list: Shape[],
): Promise<{ folder: string; answers: RecordedAnswer[] }> {
  const answers: RecordedAnswer[] = [];
  for (const shape of list) {
    for (const target of shape.targets) answers.push(await ask(url, shape, target, shape.body));
  }
  const collections = await listCollections(url);
  const folder = await mkdtemp(join(tmpdir(), 'answers-bench-'));
  await writeFile(join(folder, 'answers.json'), JSON.stringify(answers));
  await writeFile(join(folder, 'db.json'), JSON.stringify({ collections }));
  return { folder, answers };
}
