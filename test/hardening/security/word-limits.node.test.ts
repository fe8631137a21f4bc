/**
 * The limit on distinct search words (issue 34, item 4): the search vocabulary is a `Map`, which
 * V8 caps at 2^24 entries. Creates of 1 MB of fresh words reached it, and then every write
 * bringing a new word answered 500, for every account, until a reset; the failing create was
 * stored and listed but not journaled. Writes past the limit now get the documented 507 before
 * anything is stored, and the words of deleted objects are given back.
 */
import { describe, expect, it } from 'vitest';
import { assemble } from '../../../src/assemble.ts';
import { emptyState } from '../../../src/index.ts';
import { DEFAULT_MAX_WORDS, V8_MAP_CAP } from '../../../src/core/limits.ts';
import { send } from '../../support/in-process.ts';
import { KEYS } from '../../support/keys.ts';

/** Words per create: about 960 KB of JSON, under the API's 1 MiB body. */
const WORDS_PER_CREATE = 120_000;
/** Room for two such creates, not three. */
const MAX_WORDS = 2 * WORDS_PER_CREATE + 1_000;

let fresh = 0;
/** `count` words no object has held before, space-separated. */
function freshWords(count: number): string {
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(`w${(fresh++).toString(36)}`);
  return words.join(' ');
}

async function mockWithCollections(maxWords = MAX_WORDS) {
  const { mock, state } = await assemble({ initialState: emptyState(), maxWords });
  const collectionOf = async (key: string) => {
    const created = await send(mock, {
      method: 'POST',
      path: '/collections',
      key,
      body: { name: 'c' },
    });
    expect(created.status).toBe(201);
    return `/collections/${created.json.id as string}/objects`;
  };
  return {
    mock,
    state,
    acme: await collectionOf(KEYS.full),
    globex: await collectionOf(KEYS.globex),
  };
}

describe('the limit on distinct search words', () => {
  it('answers 1 MB creates of fresh words with 507 at the limit, storing nothing, while known words still go in for every account', async () => {
    const { mock, state, acme, globex } = await mockWithCollections();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await send(mock, {
        method: 'POST',
        path: acme,
        body: { content: { text: freshWords(WORDS_PER_CREATE) } },
      });
      statuses.push(made.status);
      if (made.status === 507) {
        expect(made.json).toMatchObject({ code: 'insufficient_storage', status: 507 });
        expect(made.json.detail).toMatch(/limit of \d+ distinct search words.*maxWords/);
      }
    }
    expect(statuses).toEqual([201, 201, 507]);
    // Nothing of the refused create: not stored, not indexed, no change any cache or journal sees.
    const version = state.store.version;
    const words = state.store.vocabulary.size;
    expect(words).toBeLessThanOrEqual(MAX_WORDS);
    const listed = await send(mock, { path: acme });
    const refused = freshWords(WORDS_PER_CREATE);
    for (const [key, path] of [
      [KEYS.full, acme],
      [KEYS.globex, globex],
    ] as const) {
      const more = await send(mock, { method: 'POST', path, key, body: { content: { refused } } });
      expect(more.status).toBe(507);
    }
    expect(state.store.version).toBe(version);
    expect(state.store.vocabulary.size).toBe(words);
    expect(mock.controls.export().objects).toHaveLength(2);
    expect((await send(mock, { path: acme })).body).toBe(listed.body);
    const search = await send(mock, {
      method: 'POST',
      path: '/search',
      body: { query: refused.split(' ')[0] },
    });
    expect(search.json.total).toBe(0);
    // Known words (and no words at all) are still written, by every account.
    for (const [key, path] of [
      [KEYS.full, acme],
      [KEYS.globex, globex],
    ] as const) {
      const known = await send(mock, {
        method: 'POST',
        path,
        key,
        body: { content: { text: 'w0 w1 w2', n: 1 } },
      });
      expect(known.status).toBe(201);
    }
  });

  it('refuses a replace or a patch bringing new words past the limit, leaving the object as it was', async () => {
    const { mock, state, acme } = await mockWithCollections(1_000);
    const first = await send(mock, {
      method: 'POST',
      path: acme,
      body: { content: { text: freshWords(990) } },
    });
    expect(first.status).toBe(201);
    const small = await send(mock, { method: 'POST', path: acme, body: { content: { t: 'w0' } } });
    const at = `${acme}/${small.json.id as string}`;
    const version = state.store.version;
    for (const method of ['PUT', 'PATCH']) {
      const grown = await send(mock, {
        method,
        path: at,
        body: { content: { t: freshWords(20) } },
      });
      expect(grown.status).toBe(507);
    }
    expect(state.store.version).toBe(version);
    expect((await send(mock, { path: at })).json.content).toEqual({ t: 'w0' });
  });

  it('gives a deleted object its words back: fresh words fit again', async () => {
    const { mock, state, acme } = await mockWithCollections(1_000);
    const big = await send(mock, {
      method: 'POST',
      path: acme,
      body: { content: { text: freshWords(990) } },
    });
    const more = { content: { text: freshWords(20) } };
    expect((await send(mock, { method: 'POST', path: acme, body: more })).status).toBe(507);
    await send(mock, { method: 'DELETE', path: `${acme}/${big.json.id as string}` });
    expect(state.store.vocabulary.size).toBe(0);
    expect((await send(mock, { method: 'POST', path: acme, body: more })).status).toBe(201);
  });

  it('defaults to a limit below the entries V8 lets a Map hold, so a write is refused before the map would throw', async () => {
    expect(DEFAULT_MAX_WORDS).toBeLessThan(V8_MAP_CAP);
    const { mock, state } = await assemble({ initialState: emptyState() });
    const created = await send(mock, { method: 'POST', path: '/collections', body: { name: 'c' } });
    const path = `/collections/${created.json.id as string}/objects`;
    // Filling 8,000,000 words takes a minute (the deep tier does it): here the vocabulary
    // reports itself five words short of the default limit.
    const { vocabulary } = state.store;
    Object.defineProperty(vocabulary, 'size', { get: () => DEFAULT_MAX_WORDS - 5 });
    const body = (words: string) => ({ content: { text: words } });
    expect((await send(mock, { method: 'POST', path, body: body(freshWords(5)) })).status).toBe(
      201,
    );
    expect((await send(mock, { method: 'POST', path, body: body(freshWords(6)) })).status).toBe(
      507,
    );
  });
});
