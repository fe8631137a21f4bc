/**
 * The faults of how answers are labelled and shaped (src/faults/responses.ts). Each test sets a
 * faulted mock beside a correct one over the same seed: what the defect changes, and what it leaves
 * alone.
 */
import { describe, expect, it } from 'vitest';
import { send, violations, type Sent } from '../support/in-process.ts';
import { acme, byName, mocks } from './mocks.ts';

describe('withFault', () => {
  it('wrong-content-type: successful JSON responses are labelled text/plain', async () => {
    const { plain, faulty } = await mocks('wrong-content-type');
    const sent: Sent = { path: '/collections' };
    expect((await send(plain, sent)).headers['content-type']).toBe('application/json');
    const wrong = await send(faulty, sent);
    expect(wrong.headers['content-type']).toBe('text/plain');
    expect(wrong.json.data).toHaveLength(acme.length);
    expect(await violations(plain, 'listCollections', sent)).toEqual([]);
    expect(await violations(faulty, 'listCollections', sent)).toEqual([
      'content type text/plain is not application/json',
    ]);
    // Errors keep their media type.
    const refused = await send(faulty, { path: '/collections', key: null });
    expect(refused.headers['content-type']).toBe('application/problem+json');
  });

  it('schema-violation: object_count is a string', async () => {
    const { plain, faulty } = await mocks('schema-violation');
    const faq = byName('Product FAQ');
    const sent: Sent = { path: `/collections/${faq.id}` };
    expect((await send(plain, sent)).json.object_count).toBe(24);
    expect((await send(faulty, sent)).json.object_count).toBe('24');
    expect(await violations(plain, 'getCollection', sent)).toEqual([]);
    expect(await violations(faulty, 'getCollection', sent)).toEqual([
      'body/object_count must be integer',
    ]);
    const listed = (await send(faulty, { path: '/collections' })).json.data;
    expect(listed.every((c: any) => typeof c.object_count === 'string')).toBe(true);
  });

  it('error-body-not-problem: errors are plain JSON without a problem code', async () => {
    const { plain, faulty } = await mocks('error-body-not-problem');
    const cases: Sent[] = [
      { path: '/collections/col_00000000000000000000' },
      { path: '/collections', key: null },
      { path: '/collections', query: { limit: '0' } },
    ];
    for (const sent of cases) {
      const correct = await send(plain, sent);
      expect(correct.headers['content-type']).toBe('application/problem+json');
      const wrong = await send(faulty, sent);
      expect(wrong.status).toBe(correct.status);
      expect(wrong.headers['content-type']).toBe('application/json');
      expect(wrong.json).toEqual({ error: correct.json.detail });
    }
    const refused = await send(faulty, cases[1]!);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await send(faulty, { path: '/collections' })).json.data).toHaveLength(acme.length);
  });
});
