/**
 * The Target adapter sends what the description says: values placed in the URL for an operation
 * that takes them there (and no body on GET), next links resolved against the page that held
 * them, and the suite's own key in the stated form the target accepts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ContractClient } from '../../src/contract/client.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';
import { Target } from '../../src/contract/target-api/target.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

interface Seen {
  method: string;
  url: string;
  body: string;
  authorization?: string;
  apiKey?: string;
}

let server: RunningProxy | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A loopback server that records every request and answers from `pages` by path and query. */
async function recording(pages: Record<string, unknown>) {
  const seen: Seen[] = [];
  server = await startProxy('http://127.0.0.1:9', {
    before: (request) => {
      seen.push({
        method: request.method,
        url: request.url,
        body: request.body,
        authorization: request.headers.authorization,
        apiKey: request.headers['x-answers-api-key'] as string | undefined,
      });
      return { status: 200, body: JSON.stringify(pages[request.url] ?? {}) };
    },
  });
  return seen;
}

/** An update in parts: the name by PATCH, the metadata by a sub-resource PUT. */
const IN_PARTS = `operations:
  updateCollection:
    - { request: 'PATCH /c/{collection_id}', body: { title: '{name}' } }
    - { request: 'PUT /c/{collection_id}/metadata', body: '{metadata}' }
`;

describe('the Target adapter', () => {
  it('puts {query} in the URL of a GET search and sends no body', async () => {
    const seen = await recording({});
    const description = parseTargetDescription(
      'operations:\n  search: GET /find?q={query}\n',
      't.yaml',
    );
    const target = new Target(description, new ContractClient(server!.url, 'k', false), false);
    await target.send('search', { body: { query: 'two words' } });
    expect(seen).toEqual([
      expect.objectContaining({ method: 'GET', url: '/find?q=two%20words', body: '' }),
    ]);
  });

  it('leaves out a query parameter whose placeholder has no value: a search with no scope', async () => {
    const description = parseTargetDescription(
      'operations:\n  search: GET /find?text={query}&in={collection_ids}&lang=en\n  getCollection: GET /c/{collection_id}\n',
      't.yaml',
    );
    const target = new Target(
      description,
      new ContractClient('http://127.0.0.1:9', 'k', false),
      false,
    );
    expect
      .soft(target.route('search', { query: 'ragù' }).path)
      .toBe('/find?text=rag%C3%B9&lang=en');
    expect
      .soft(target.route('search', { query: 'a', collection_ids: ['c1', 'c2'] }).path)
      .toBe('/find?text=a&in=c1%2Cc2&lang=en');
    expect(() => target.route('getCollection', {})).toThrow(/no value for \{collection_id\}/);
  });

  it('sends an update in parts: each part whose body carries a value given, in order', async () => {
    const seen = await recording({});
    const description = parseTargetDescription(IN_PARTS, 't.yaml');
    const target = new Target(description, new ContractClient(server!.url, 'k', false), false);
    const params = { collection_id: 'c1' };
    await target.send('updateCollection', { params, body: { metadata: { a: 1 } } });
    await target.send('updateCollection', { params, body: { name: 'n2' } });
    await target.send('updateCollection', { params, body: { name: 'n3', metadata: { b: 2 } } });
    expect(seen.map(({ method, url, body }) => `${method} ${url} ${body}`)).toEqual([
      'PUT /c/c1/metadata {"a":1}',
      'PATCH /c/c1 {"title":"n2"}',
      'PATCH /c/c1 {"title":"n3"}',
      'PUT /c/c1/metadata {"b":2}',
    ]);
    expect(target.carries('updateCollection', '{name}')).toBe(true);
    expect(target.carries('createCollection', '{name}')).toBe(false); // not offered
    expect(target.carries('updateObject', '{name}')).toBe(false);
  });

  it('stops an update in parts at the first part refused, and answers with it', async () => {
    const seen: string[] = [];
    server = await startProxy('http://127.0.0.1:9', {
      before: (request) => {
        seen.push(`${request.method} ${request.url}`);
        return { status: request.method === 'PATCH' ? 409 : 200, body: '{}' };
      },
    });
    const description = parseTargetDescription(IN_PARTS, 't.yaml');
    const target = new Target(description, new ContractClient(server.url, 'k', false), false);
    const answer = await target.send('updateCollection', {
      params: { collection_id: 'c1' },
      body: { name: 'taken', metadata: {} },
    });
    expect(answer.status).toBe(409);
    expect(seen).toEqual(['PATCH /c/c1']);
  });

  it('resolves next links against the page that held them, under a base URL with a path', async () => {
    const seen = await recording({
      '/api/v1/things': { items: [{ id: 1 }], next: '/api/v1/things?page=2' },
      '/api/v1/things?page=2': { items: [{ id: 2 }], next: 'things?page=3' },
      '/api/v1/things?page=3': { items: [{ id: 3 }], next: null },
    });
    const description = parseTargetDescription(
      'operations:\n  listCollections: GET /things\nlist: { items: /items, next: /next }\npaging: { follow: true }\ncollection: { id: /id }\n',
      't.yaml',
    );
    const client = new ContractClient(`${server!.url}/api/v1`, 'k', false);
    const items = await new Target(description, client, false).walkCollections();
    expect(items).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(seen.map((s) => s.url)).toEqual([
      '/api/v1/things',
      '/api/v1/things?page=2',
      '/api/v1/things?page=3',
    ]);
  });

  it('presents its own key in the form it is told to', async () => {
    const seen = await recording({});
    const client = new ContractClient(server!.url, 'secret', false);
    await client.request('GET', '/a');
    client.keyHeader = 'x-answers-api-key';
    await client.request('GET', '/b');
    await client.request('GET', '/c', { headers: { authorization: 'Bearer crafted' } });
    expect(seen.map(({ authorization, apiKey }) => ({ authorization, apiKey }))).toEqual([
      { authorization: 'Bearer secret', apiKey: undefined },
      { authorization: undefined, apiKey: 'secret' },
      { authorization: 'Bearer crafted', apiKey: undefined },
    ]);
  });
});

describe('the object a search hit holds (Target.hitObjectOf): one rule for the suite and explore', () => {
  const hit = { object: { meta: { id: 'o1' }, body: 'text' }, item: { id: 'o1' }, score: 1 };
  it.each([
    ['the object around its id', '/id', '/item/id', undefined, hit.item],
    [
      "the id pointer less the object's own, however deep",
      '/meta/id',
      '/object/meta/id',
      undefined,
      hit.object,
    ],
    ['the hit itself, where its id is the object id', '/item/id', '/item/id', undefined, hit],
    [
      "none, where the hit's id pointer does not end as an object's",
      '/id',
      '/objectId',
      undefined,
      undefined,
    ],
    ['where the description says (search.hitObject)', '/id', '/item/id', '/object', hit.object],
  ] as const)('%s', (_, own, hitObjectId, hitObject, expected) => {
    const description = parseTargetDescription(
      `object:\n  id: ${own}\nsearch:\n  hitObjectId: ${hitObjectId}\n${hitObject ? `  hitObject: ${hitObject}\n` : ''}`,
      't.yaml',
    );
    const target = new Target(
      description,
      new ContractClient('http://127.0.0.1:9', 'k', false),
      false,
    );
    expect(target.hitObjectOf(hit)).toEqual(expected);
  });
});
