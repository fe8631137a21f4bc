import { describe, expect, it } from 'vitest';
import { defaultState } from 'answers-mock-kit';
import { mock } from './setup.ts';
import { AnswersError, deleteCollection, listCollectionNames, search } from './answers-client.ts';

const KEY = 'answers_test_full_acme';
const faq = defaultState.collections.find((c) => c.name === 'Product FAQ')!;

describe('the app against the Answers mock', () => {
  it('lists the seeded collections', async () => {
    expect(await listCollectionNames(KEY)).toContain('Product FAQ');
  });

  it('sees a delete, and the next test starts from the seed again', async () => {
    await deleteCollection(KEY, faq.id);
    expect(await listCollectionNames(KEY)).not.toContain('Product FAQ');
  });

  it('starts from the seed (the previous test deleted nothing for this one)', async () => {
    expect(await listCollectionNames(KEY)).toContain('Product FAQ');
  });

  it('surfaces a 401 for a key without permission', async () => {
    await expect(deleteCollection('answers_test_readonly_acme', faq.id)).rejects.toEqual(
      new AnswersError(401, 'insufficient_permission'),
    );
  });

  it('surfaces a forced 500 once, then recovers', async () => {
    mock.controls.failNext('listCollections', 500);
    await expect(listCollectionNames(KEY)).rejects.toEqual(new AnswersError(500, 'internal_error'));
    expect(await listCollectionNames(KEY)).toContain('Product FAQ');
  });

  it("surfaces a gateway's 503, with when to retry", async () => {
    mock.controls.failNext('listCollections', 503);
    const response = await fetch('https://answers.example.com/api/answers/v1/collections', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
  });

  it('surfaces a rate limit forced with a Prefer header', async () => {
    const response = await fetch('https://answers.example.com/api/answers/v1/collections', {
      headers: { authorization: `Bearer ${KEY}`, prefer: 'code=429' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
  });

  it('waits for injected latency', async () => {
    mock.controls.setLatency(30);
    const started = performance.now();
    await listCollectionNames(KEY);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('finds objects created in the test', async () => {
    await fetch(`https://answers.example.com/api/answers/v1/collections/${faq.id}/objects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: { title: 'Quokka care guide' } }),
    });
    expect(await search(KEY, 'quokka')).toBe(1);
  });
});
