import { describe, expect, it } from 'vitest';
import { call, KEYS } from '../support/api.ts';
import { useMswMock } from '../support/msw-setup.ts';
import { defaultState } from '../../src/seed/default-state.ts';

await useMswMock();
const [faq, tickets] = defaultState.collections.filter((c) => c.account_id === 'acme');
const globexCollection = defaultState.collections.find((c) => c.account_id === 'globex')!;

async function seed(collectionId: string, contents: object[], key: string = KEYS.full) {
  const ids: string[] = [];
  for (const content of contents) {
    const created = await call('createObject', 'POST', `/collections/${collectionId}/objects`, {
      key,
      body: { content },
    });
    ids.push(created.json.id);
  }
  return ids;
}

describe('POST /search', () => {
  it('finds objects containing a word, case-insensitively, ranked by score', async () => {
    const [once, twice, both] = await seed(faq!.id, [
      { title: 'Zephyrine refund' },
      { title: 'ZEPHYRINE and zephyrine', tags: ['other'] },
      { body: 'zephyrine quokkalicious' },
    ]);
    const found = await call('searchObjects', 'POST', '/search', {
      body: { query: 'Zephyrine QUOKKALICIOUS' },
    });
    expect(found.json.data.map((hit: any) => hit.object.id)).toEqual([both, twice, once]);
    expect(found.json.total).toBe(3);
    const scores = found.json.data.map((hit: any) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(found.json.data[0].collection_id).toBe(faq!.id);
    expect(found.json.took_ms).toBeGreaterThanOrEqual(0);
  });

  it('does not return objects without any query word', async () => {
    await seed(faq!.id, [{ title: 'zephyrine' }, { title: 'zephyrines plural is another word' }]);
    const found = await call('searchObjects', 'POST', '/search', { body: { query: 'zephyrine' } });
    expect(found.json.total).toBe(1);
  });

  it('respects the collection filter', async () => {
    await seed(faq!.id, [{ title: 'quasar' }]);
    const [inTickets] = await seed(tickets!.id, [{ title: 'quasar' }]);
    const found = await call('searchObjects', 'POST', '/search', {
      body: { query: 'quasar', collection_ids: [tickets!.id] },
    });
    expect(found.json.data.map((hit: any) => hit.object.id)).toEqual([inTickets]);
  });

  it('never returns another account objects, and refuses its collection ids as unknown', async () => {
    await seed(globexCollection.id, [{ title: 'xylophonic' }], KEYS.globex);
    const found = await call('searchObjects', 'POST', '/search', { body: { query: 'xylophonic' } });
    expect(found.json).toMatchObject({ data: [], total: 0, has_more: false, next_cursor: null });
    const foreign = await call('searchObjects', 'POST', '/search', {
      body: { query: 'xylophonic', collection_ids: [globexCollection.id] },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe('collection_not_found');
  });

  it('pages through hits with a cursor, without repeats', async () => {
    const ids = await seed(
      faq!.id,
      Array.from({ length: 7 }, (_, i) => ({ title: `marmalade ${i}` })),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('searchObjects', 'POST', '/search', {
        body: { query: 'marmalade', limit: 3, cursor },
      });
      seen.push(...page.json.data.map((hit: any) => hit.object.id));
      cursor = page.json.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('refuses a query without words, and a cursor of another search', async () => {
    const empty = await call('searchObjects', 'POST', '/search', { body: { query: '?!' } });
    expect(empty.json.code).toBe('validation_failed');
    await seed(faq!.id, [{ t: 'kumquat' }, { t: 'kumquat' }]);
    const page = await call('searchObjects', 'POST', '/search', {
      body: { query: 'kumquat', limit: 1 },
    });
    const other = await call('searchObjects', 'POST', '/search', {
      body: { query: 'different', cursor: page.json.next_cursor },
    });
    expect(other.json.code).toBe('invalid_cursor');
  });

  it('indexes and finds an object of 150,000 words (near the 1 MiB body limit)', async () => {
    const text = Array.from({ length: 150_000 }, (_, i) => `w${i % 5_000}`).join(' ');
    const [id] = await seed(faq!.id, [{ text }]);
    const found = await call('searchObjects', 'POST', '/search', { body: { query: 'w4999' } });
    expect(found.json.data.map((hit: any) => hit.object.id)).toEqual([id]);
    // 30 occurrences of one query word: 1 + 30/31.
    expect(found.json.data[0].score).toBeCloseTo(1 + 30 / 31, 4);
  });
});
