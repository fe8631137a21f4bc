/**
 * The faults of search (src/faults/search.ts). Each test sets a faulted mock beside a correct one
 * over the same seed: what the defect changes, and what it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import type { AnswersMock } from '../../src/index.ts';
import { words } from '../../src/core/search/search-index.ts';
import { validateResponse } from '../../src/openapi/response-validation.ts';
import { send, type Sent } from '../support/in-process.ts';
import { KEYS } from '../support/keys.ts';
import { acmeObjectCount, byName, mocks, objectsOf } from './mocks.ts';

describe('withFault', () => {
  it("search-ignores-query: every one of the caller's objects matches any query", async () => {
    const { plain, faulty } = await mocks('search-ignores-query');
    const sent: Sent = { method: 'POST', path: '/search', body: { query: 'xyzzyplugh' } };
    const correct = await send(plain, sent);
    expect(correct.status).toBe(200);
    expect(correct.json).toMatchObject({ data: [], total: 0, has_more: false });
    const wrong = await send(faulty, sent);
    expect(wrong.json).toMatchObject({ total: acmeObjectCount, has_more: true });
    expect(wrong.json.data).toHaveLength(10);
    expect(wrong.json.data.every((hit: any) => hit.score === 1)).toBe(true);
    expect(
      validateResponse('searchObjects', {
        status: 200,
        headers: new Headers(wrong.headers),
        body: wrong.body!,
      }),
    ).toEqual([]);
    // Its cursors work: a walk sees every acme object once.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await send(faulty, {
        ...sent,
        body: { query: 'xyzzyplugh', limit: 40, cursor },
      });
      expect(page.status).toBe(200);
      seen.push(...page.json.data.map((hit: any) => hit.object.id));
      cursor = page.json.next_cursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(acmeObjectCount);
    expect(seen).toHaveLength(acmeObjectCount);
  });

  it('search-index-stale: objects created after start-up are never found', async () => {
    const { plain, faulty } = await mocks('search-index-stale');
    const path = `/collections/${byName('Drafts').id}/objects`;
    const search: Sent = { method: 'POST', path: '/search', body: { query: 'zebrastale' } };
    const run = async (mock: AnswersMock) => {
      const created = await send(mock, {
        method: 'POST',
        path,
        body: { content: { title: 'zebrastale' } },
      });
      expect(created.status).toBe(201);
      return (await send(mock, search)).json;
    };
    expect(await run(plain)).toMatchObject({ total: 1 });
    expect(await run(faulty)).toMatchObject({ data: [], total: 0 });
    // What was there at start-up is still found.
    const object = objectsOf(byName('Onboarding guide').id)[0]!;
    const word = words(String(object.content.title))[0]!;
    const found = await send(faulty, { ...search, body: { query: word, limit: 100 } });
    expect(found.json.data.map((hit: any) => hit.object.id)).toContain(object.id);
  });

  it('search-filter-ignored: collection_ids does not restrict the hits', async () => {
    const { plain, faulty } = await mocks('search-filter-ignored');
    const [first, second] = [byName('Drafts'), byName('Glossary')];
    const run = async (mock: AnswersMock) => {
      for (const collection of [first, second]) {
        const created = await send(mock, {
          method: 'POST',
          path: `/collections/${collection.id}/objects`,
          body: { content: { title: 'zebrafilter' } },
        });
        expect(created.status).toBe(201);
      }
      const found = await send(mock, {
        method: 'POST',
        path: '/search',
        body: { query: 'zebrafilter', collection_ids: [first.id] },
      });
      return found.json.data.map((hit: any) => hit.collection_id).sort();
    };
    expect(await run(plain)).toEqual([first.id]);
    expect(await run(faulty)).toEqual([first.id, second.id].sort());
    const unknown: Sent = {
      method: 'POST',
      path: '/search',
      body: { query: 'zebrafilter', collection_ids: ['col_00000000000000000000'] },
    };
    expect((await send(plain, unknown)).status).toBe(404);
    expect((await send(faulty, unknown)).status).toBe(200);
  });

  it("search-cross-account: search also returns other accounts' objects", async () => {
    const { plain, faulty } = await mocks('search-cross-account');
    const run = async (mock: AnswersMock) => {
      const created = await send(mock, {
        method: 'POST',
        path: `/collections/${byName('Drafts').id}/objects`,
        body: { content: { title: 'zebracross' } },
      });
      expect(created.status).toBe(201);
      const theirs = await send(mock, {
        method: 'POST',
        path: '/search',
        key: KEYS.globex,
        body: { query: 'zebracross' },
      });
      expect(theirs.status).toBe(200);
      return { id: created.json.id, found: theirs.json };
    };
    const correct = await run(plain);
    expect(correct.found).toMatchObject({ data: [], total: 0 });
    const wrong = await run(faulty);
    expect(wrong.found.total).toBe(1);
    expect(wrong.found.data.map((hit: any) => hit.object.id)).toEqual([wrong.id]);
    expect(wrong.found.data[0].collection_id).toBe(byName('Drafts').id);
  });
});
