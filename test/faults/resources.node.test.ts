/**
 * The faults of single collections and objects (src/faults/resources.ts). Each test sets a faulted
 * mock beside a correct one over the same seed: what the defect changes, and what it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import type { AnswersMock } from '../../src/index.ts';
import { send, violations, type Sent } from '../support/in-process.ts';
import { KEYS } from '../support/keys.ts';
import { acme, byName, mocks, objectsOf } from './mocks.ts';

describe('withFault', () => {
  it('collection-lookup-off-by-one: get answers the next collection, the newest 404', async () => {
    const { plain, faulty } = await mocks('collection-lookup-off-by-one');
    for (const [i, collection] of acme.entries()) {
      const sent: Sent = { path: `/collections/${collection.id}` };
      expect((await send(plain, sent)).json.id).toBe(collection.id);
      const got = await send(faulty, sent);
      if (i + 1 < acme.length) {
        expect(got.status).toBe(200);
        expect(got.json).toMatchObject({ id: acme[i + 1]!.id, name: acme[i + 1]!.name });
      } else {
        expect([got.status, got.json.code]).toEqual([404, 'collection_not_found']);
      }
    }
    const unknown = await send(faulty, { path: '/collections/col_00000000000000000000' });
    expect(unknown.status).toBe(404);
  });

  it("cross-account-leak: another account's collection is visible by id", async () => {
    const { plain, faulty } = await mocks('cross-account-leak');
    const foreign: Sent = { path: `/collections/${acme[1]!.id}`, key: KEYS.globex };
    const correct = await send(plain, foreign);
    expect(correct.status).toBe(404);
    expect(correct.json.code).toBe('collection_not_found');
    const leaked = await send(faulty, foreign);
    expect(leaked.status).toBe(200);
    expect(leaked.json).toMatchObject({ id: acme[1]!.id, name: acme[1]!.name });
    const unknown: Sent = { path: '/collections/col_00000000000000000000', key: KEYS.globex };
    expect((await send(faulty, unknown)).status).toBe(404);
  });

  it('system-fields-missing: objects lack created_at and version', async () => {
    const { plain, faulty } = await mocks('system-fields-missing');
    const collection = byName('Glossary');
    const object = objectsOf(collection.id)[0]!;
    const cases: Array<[string, Sent]> = [
      ['getObject', { path: `/collections/${collection.id}/objects/${object.id}` }],
      ['listObjects', { path: `/collections/${collection.id}/objects` }],
      [
        'createObject',
        {
          method: 'POST',
          path: `/collections/${collection.id}/objects`,
          body: { content: { a: 'b' } },
        },
      ],
    ];
    for (const [operationId, sent] of cases) {
      expect(await violations(plain, operationId, sent), operationId).toEqual([]);
      expect(await violations(faulty, operationId, sent), operationId).toEqual(
        expect.arrayContaining([expect.stringMatching(/must have required property 'created_at'/)]),
      );
    }
    const got = (await send(faulty, cases[0]![1])).json;
    expect(got).not.toHaveProperty('created_at');
    expect(got).not.toHaveProperty('version');
    expect(got).toMatchObject({ id: object.id, updated_at: object.updated_at });
  });

  it('client-system-fields-accepted: unknown fields in create bodies are dropped, not refused', async () => {
    const { plain, faulty } = await mocks('client-system-fields-accepted');
    const path = `/collections/${byName('Drafts').id}/objects`;
    const sent: Sent = {
      method: 'POST',
      path,
      body: { content: { a: 'b' }, id: 'obj_aaaaaaaaaaaaaaaaaaaa', version: 99 },
    };
    const correct = await send(plain, sent);
    expect([correct.status, correct.json.code]).toEqual([400, 'validation_failed']);
    const created = await send(faulty, sent);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ content: { a: 'b' }, version: 1 });
    expect(created.json.id).not.toBe('obj_aaaaaaaaaaaaaaaaaaaa');
    const collection: Sent = {
      method: 'POST',
      path: '/collections',
      body: { name: 'Fields', created_at: '2000-01-01T00:00:00.000Z' },
    };
    expect((await send(plain, collection)).status).toBe(400);
    const made = await send(faulty, collection);
    expect(made.status).toBe(201);
    expect(made.json.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    // A body missing a required field is still refused.
    expect((await send(faulty, { method: 'POST', path, body: { id: 'x' } })).status).toBe(400);
  });

  it('object-nested-content-dropped: get answers content without nested values', async () => {
    const { plain, faulty } = await mocks('object-nested-content-dropped');
    const path = `/collections/${byName('Drafts').id}/objects`;
    const content = { title: 'nested', count: 2, tags: ['a', 'b'], meta: { lang: 'en' } };
    const run = async (mock: AnswersMock) => {
      const created = await send(mock, { method: 'POST', path, body: { content } });
      expect(created.json.content).toEqual(content);
      const listed = (await send(mock, { path })).json.data.find(
        (o: any) => o.id === created.json.id,
      );
      expect(listed.content).toEqual(content);
      return (await send(mock, { path: `${path}/${created.json.id}` })).json;
    };
    expect((await run(plain)).content).toEqual(content);
    const got = await run(faulty);
    expect(got.content).toEqual({ title: 'nested', count: 2 });
    expect(got).toMatchObject({ version: 1, collection_id: byName('Drafts').id });
  });
});
