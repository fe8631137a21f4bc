/**
 * One source of truth, as a property: random writes through the API and through `mock.db`,
 * interleaved, and after every step every read path of the API (get, list pages, counts, search)
 * agrees with what `mock.db` holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFactories, createMock, emptyState, type AnswersMock } from '../../../src/index.ts';
import { send, walkInProcess } from '../../support/in-process.ts';

/** Words each object carries one of, so a search for a word has a known answer. */
const WORDS = ['amber', 'basalt', 'cobalt', 'dune'] as const;

type Step =
  | { kind: 'apiCollection' }
  | { kind: 'dbCollection' }
  | { kind: 'apiObject'; pick: number; word: number }
  | { kind: 'dbObject'; pick: number; word: number }
  | { kind: 'apiPatch'; pick: number; word: number }
  | { kind: 'dbUpdate'; pick: number; word: number }
  | { kind: 'apiDeleteObject'; pick: number }
  | { kind: 'dbDeleteObject'; pick: number }
  | { kind: 'apiDeleteCollection'; pick: number }
  | { kind: 'dbDeleteCollection'; pick: number };

const pick = fc.nat(1_000);
const word = fc.nat(WORDS.length - 1);
// @note Weighted towards creating, so most runs hold data for the changes and deletes to hit.
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'apiCollection' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'dbCollection' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('apiObject' as const), pick, word }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('dbObject' as const), pick, word }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('apiPatch' as const), pick, word }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('dbUpdate' as const), pick, word }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('apiDeleteObject' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dbDeleteObject' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('apiDeleteCollection' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dbDeleteCollection' as const), pick }) },
);

let created = 0;
const nth = <T>(items: readonly T[], n: number) =>
  items.length === 0 ? undefined : items[n % items.length];

async function apply(mock: AnswersMock, factories: ReturnType<typeof createFactories>, s: Step) {
  const collections = mock.db.collections.findMany((q) => q.where({ account_id: 'acme' }));
  const objects = mock.db.objects.findMany((q) => q.where({ account_id: 'acme' }));
  const content = (w: number) => ({ text: `${WORDS[w]} note`, n: w });
  switch (s.kind) {
    case 'apiCollection':
      await send(mock, {
        method: 'POST',
        path: '/collections',
        body: { name: `api ${(created += 1)}` },
      });
      return;
    case 'dbCollection':
      await factories.collection();
      return;
    case 'apiObject': {
      const c = nth(collections, s.pick);
      if (c)
        await send(mock, {
          method: 'POST',
          path: `/collections/${c.id}/objects`,
          body: { content: content(s.word) },
        });
      return;
    }
    case 'dbObject': {
      const c = nth(collections, s.pick);
      if (c) await factories.object(c.id, { content: content(s.word) });
      return;
    }
    case 'apiPatch': {
      const o = nth(objects, s.pick);
      if (o)
        await send(mock, {
          method: 'PUT',
          path: `/collections/${o.collection_id}/objects/${o.id}`,
          body: { content: content(s.word) },
        });
      return;
    }
    case 'dbUpdate': {
      const o = nth(objects, s.pick);
      if (o) await mock.db.objects.update(o, { data: (d) => void (d.content = content(s.word)) });
      return;
    }
    case 'apiDeleteObject': {
      const o = nth(objects, s.pick);
      if (o)
        await send(mock, {
          method: 'DELETE',
          path: `/collections/${o.collection_id}/objects/${o.id}`,
        });
      return;
    }
    case 'dbDeleteObject': {
      const o = nth(objects, s.pick);
      if (o) await mock.db.objects.delete(o);
      return;
    }
    case 'apiDeleteCollection': {
      const c = nth(collections, s.pick);
      if (c) await send(mock, { method: 'DELETE', path: `/collections/${c.id}` });
      return;
    }
    case 'dbDeleteCollection': {
      const c = nth(collections, s.pick);
      if (c) await mock.db.collections.delete(c);
      return;
    }
  }
}

/** Every read path of the API against `mock.db`. */
async function agree(mock: AnswersMock) {
  const collections = mock.db.collections
    .findMany((q) => q.where({ account_id: 'acme' }))
    .sort((a, b) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1,
    );
  const listed = await walkInProcess(mock, '/collections', 2);
  expect(listed.map((c) => c.id)).toEqual(collections.map((c) => c.id));
  for (const collection of collections) {
    const objects = mock.db.objects.findMany((q) => q.where({ collection_id: collection.id }));
    const got = await send(mock, { path: `/collections/${collection.id}` });
    expect(got.json.object_count).toBe(objects.length);
    const walked = await walkInProcess(mock, `/collections/${collection.id}/objects`, 3);
    expect(new Set(walked.map((o) => o.id))).toEqual(new Set(objects.map((o) => o.id)));
    for (const object of walked) {
      const stored = objects.find((o) => o.id === object.id)!;
      expect(object.content).toEqual(stored.content);
      expect(object.version).toBe(stored.version);
    }
  }
  const all = mock.db.objects.findMany((q) => q.where({ account_id: 'acme' }));
  for (const w of WORDS) {
    const found = await send(mock, {
      method: 'POST',
      path: '/search',
      body: { query: w, limit: 100 },
    });
    const expected = all.filter((o) => JSON.stringify(o.content).includes(`"${w} note"`));
    expect(new Set(found.json.data.map((hit: any) => hit.object.id))).toEqual(
      new Set(expected.map((o) => o.id)),
    );
  }
}

describe('mock.db and the API under interleaved writes', () => {
  it('agree on every read after every step', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 10, maxLength: 30, size: 'max' }),
        async (steps) => {
          const mock = await createMock({
            initialState: emptyState(),
            now: '2026-01-01T00:00:00.000Z',
          });
          const factories = createFactories(mock, { seed: 3 });
          for (const s of steps) {
            await apply(mock, factories, s);
            await agree(mock);
          }
        },
      ),
      { seed: 20_261_123, numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
  }, 120_000);
});
