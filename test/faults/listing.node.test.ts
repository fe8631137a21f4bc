/**
 * The faults of the lists (src/faults/listing.ts). Each test sets a faulted mock beside a correct
 * one over the same seed: what the defect changes, and what it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import type { AnswersMock } from '../../src/index.ts';
import { send, violations, walkInProcess, type Sent } from '../support/in-process.ts';
import { acme, byName, mocks, objectsOf } from './mocks.ts';

describe('withFault', () => {
  it('list-order-wrong: the collection list is sorted by name, not by creation date', async () => {
    const { plain, faulty } = await mocks('list-order-wrong');
    const correct = (await send(plain, { path: '/collections' })).json.data;
    const wrong = (await send(faulty, { path: '/collections' })).json.data;
    const dates = (items: any[]) => items.map((c) => c.created_at as string);
    expect(dates(correct)).toEqual(dates(correct).sort());
    expect(correct.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    expect(wrong.map((c: any) => c.name)).toEqual(
      acme
        .map((c) => c.name)
        .sort()
        .reverse(),
    );
    expect(dates(wrong)).not.toEqual([...dates(wrong)].sort());
    expect(dates(wrong)).not.toEqual([...dates(wrong)].sort().reverse());
    expect(new Set(wrong.map((c: any) => c.id))).toEqual(new Set(acme.map((c) => c.id)));
  });

  it('page-skips-item: a walk of a list misses the last item of every full page', async () => {
    const { plain, faulty } = await mocks('page-skips-item');
    expect((await walkInProcess(plain, '/collections', 4)).map((c) => c.id)).toEqual(
      acme.map((c) => c.id),
    );
    const walked = (await walkInProcess(faulty, '/collections', 4)).map((c) => c.id);
    expect(walked).toEqual(acme.map((c) => c.id).filter((_, i) => i !== 3));

    const onboarding = byName('Onboarding guide');
    const objectsPath = `/collections/${onboarding.id}/objects`;
    const all = objectsOf(onboarding.id).map((o) => o.id);
    expect(all).toHaveLength(5);
    expect((await walkInProcess(plain, objectsPath, 2)).map((o) => o.id)).toEqual(all);
    expect((await walkInProcess(faulty, objectsPath, 2)).map((o) => o.id)).toEqual([
      all[0],
      all[2],
      all[4],
    ]);
  });

  it('counts-wrong: object_count of non-empty collections is one too many', async () => {
    const { plain, faulty } = await mocks('counts-wrong');
    const counts = async (mock: AnswersMock) =>
      (await send(mock, { path: '/collections' })).json.data.map((c: any) => c.object_count);
    const truth = acme.map((c) => objectsOf(c.id).length);
    expect(truth).toContain(0);
    expect(await counts(plain)).toEqual(truth);
    expect(await counts(faulty)).toEqual(truth.map((n) => (n > 0 ? n + 1 : 0)));
    const faq = byName('Product FAQ');
    expect((await send(plain, { path: `/collections/${faq.id}` })).json.object_count).toBe(24);
    expect((await send(faulty, { path: `/collections/${faq.id}` })).json.object_count).toBe(25);
  });

  it('summary-without-count: list items lack object_count', async () => {
    const { plain, faulty } = await mocks('summary-without-count');
    const sent: Sent = { path: '/collections' };
    expect(
      (await send(plain, sent)).json.data.every((c: any) => Number.isInteger(c.object_count)),
    ).toBe(true);
    const listed = (await send(faulty, sent)).json.data;
    expect(listed.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    for (const item of listed) expect(item).not.toHaveProperty('object_count');
    expect(await violations(plain, 'listCollections', sent)).toEqual([]);
    expect(await violations(faulty, 'listCollections', sent)).toContain(
      "body/data/0 must have required property 'object_count'",
    );
    const faq = byName('Product FAQ');
    expect((await send(faulty, { path: `/collections/${faq.id}` })).json.object_count).toBe(24);
  });

  it('limit-clamped: a limit outside 1-100 is replaced instead of refused', async () => {
    const { plain, faulty } = await mocks('limit-clamped');
    const cases: Array<[string, number]> = [
      ['0', 1],
      ['-1', 1],
      ['2.5', 2],
      ['101', acme.length],
      ['abc', acme.length],
    ];
    for (const [limit, items] of cases) {
      const correct = await send(plain, { path: '/collections', query: { limit } });
      expect([correct.status, correct.json.code]).toEqual([400, 'invalid_parameter']);
      const served = await send(faulty, { path: '/collections', query: { limit } });
      expect(served.status, limit).toBe(200);
      expect(served.json.data, limit).toHaveLength(items);
    }
    const objects = `/collections/${byName('Product FAQ').id}/objects`;
    expect((await send(faulty, { path: objects, query: { limit: '0' } })).json.data).toHaveLength(
      1,
    );
    // Other parameters are still checked.
    expect((await send(faulty, { path: '/collections', query: { order: 'up' } })).status).toBe(400);
  });
});
