/**
 * The faults of refusals (src/faults/negative.ts). Each test sets a faulted mock beside a correct
 * one over the same seed: what the defect changes, and what it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import type { AnswersMock } from '../../src/index.ts';
import { send, sendRaw, walkInProcess, type Sent } from '../support/in-process.ts';
import { KEYS } from '../support/keys.ts';
import { acme, byName, mocks } from './mocks.ts';

describe('withFault', () => {
  it('cursor-ignored: an unusable cursor restarts the list instead of 400', async () => {
    const { plain, faulty } = await mocks('cursor-ignored');
    const bad: Sent = { path: '/collections', query: { limit: '2', cursor: 'not-a-cursor' } };
    const correct = await send(plain, bad);
    expect([correct.status, correct.json.code]).toEqual([400, 'invalid_cursor']);
    const served = await send(faulty, bad);
    expect(served.status).toBe(200);
    expect(served.json.data.map((c: any) => c.id)).toEqual(acme.slice(0, 2).map((c) => c.id));
    // Valid cursors still work.
    expect((await walkInProcess(faulty, '/collections', 2)).map((c) => c.id)).toEqual(
      acme.map((c) => c.id),
    );
  });

  it('not-found-is-500: unknown collection and object ids get 500', async () => {
    const { plain, faulty } = await mocks('not-found-is-500');
    const faq = byName('Product FAQ');
    const cases: Array<[Sent, string]> = [
      [{ path: '/collections/col_00000000000000000000' }, 'collection_not_found'],
      [{ path: `/collections/${faq.id}/objects/obj_00000000000000000000` }, 'object_not_found'],
      [{ path: `/collections/${faq.id}`, key: KEYS.globex }, 'collection_not_found'],
    ];
    for (const [sent, code] of cases) {
      const correct = await send(plain, sent);
      expect([correct.status, correct.json.code]).toEqual([404, code]);
      const wrong = await send(faulty, sent);
      expect([wrong.status, wrong.json.code]).toEqual([500, 'internal_error']);
    }
    expect((await send(faulty, { path: `/collections/${faq.id}` })).status).toBe(200);
    expect((await send(faulty, { path: `/collections/${'a'.repeat(200)}` })).status).toBe(400);
  });

  it('method-not-allowed-404: an unsupported method gets 404 without Allow', async () => {
    const { plain, faulty } = await mocks('method-not-allowed-404');
    const sent: Sent = { method: 'PUT', path: '/collections' };
    const correct = await send(plain, sent);
    expect([correct.status, correct.json.code]).toEqual([405, 'method_not_allowed']);
    expect(correct.headers.allow).toBe('GET, POST');
    const wrong = await send(faulty, sent);
    expect([wrong.status, wrong.json.code]).toEqual([404, 'not_found']);
    expect(wrong.headers).not.toHaveProperty('allow');
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
  });

  it('malformed-json-500: a body that is not JSON gets 500', async () => {
    const { plain, faulty } = await mocks('malformed-json-500');
    const search: Sent = { method: 'POST', path: '/search' };
    const correct = await sendRaw(plain, search, '{"query":');
    expect([correct.status, correct.json.code]).toEqual([400, 'malformed_json']);
    const wrong = await sendRaw(faulty, search, '{"query":');
    expect([wrong.status, wrong.json.code]).toEqual([500, 'internal_error']);
    // Well-formed but invalid bodies are still refused with 400.
    const invalid = await send(faulty, { ...search, body: { query: '' } });
    expect([invalid.status, invalid.json.code]).toEqual([400, 'validation_failed']);
  });

  it('validation-before-auth: an invalid request without a key gets 400, not 401', async () => {
    const { plain, faulty } = await mocks('validation-before-auth');
    const cases: Array<[Sent, string | undefined, string]> = [
      [{ path: '/collections', key: null, query: { limit: '0' } }, undefined, 'invalid_parameter'],
      [{ method: 'POST', path: '/search', key: null }, '{"query":', 'malformed_json'],
      [
        { path: `/collections/${'a'.repeat(200)}`, key: 'answers_test_nope' },
        undefined,
        'invalid_parameter',
      ],
    ];
    for (const [sent, raw, code] of cases) {
      const answer = (mock: AnswersMock) =>
        raw === undefined ? send(mock, sent) : sendRaw(mock, sent, raw);
      expect((await answer(plain)).status).toBe(401);
      const wrong = await answer(faulty);
      expect([wrong.status, wrong.json.code]).toEqual([400, code]);
    }
    // A valid request without a key is still refused.
    expect((await send(faulty, { path: '/collections', key: null })).status).toBe(401);
  });
});
