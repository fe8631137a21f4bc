/**
 * Security of the mock itself (issue "Hardening", part 5): an error body carries no internals,
 * also on a 500, forced or real; the stack goes to stderr only.
 */
import { describe, expect, it, vi } from 'vitest';
import { assemble } from '../../../src/assemble.ts';
import { createMock } from '../../../src/index.ts';
import { expectNoInternals } from '../catalogue-checks.ts';
import { API, FULL, ROOT, serversClosedAfterEach } from './servers.ts';

const { start } = serversClosedAfterEach();

describe('a 500 carries no internals', () => {
  const SECRET = 'secret-internal-detail';

  async function expectBare500(url: string, path = `${API}/collections`) {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(text)).toEqual({
      type: 'urn:answers:problem:internal_error',
      title: 'Internal error',
      status: 500,
      code: 'internal_error',
      detail: 'The mock failed to answer this request.',
    });
    expectNoInternals(text, 'a 500');
    expect(text).not.toContain(SECRET);
  }

  it('when forced with controls.failNext', async () => {
    const mock = await createMock();
    const running = await start({ mock });
    mock.controls.failNext('listCollections', 500);
    const response = await fetch(`${running.url}${API}/collections`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: 'internal_error' });
    expectNoInternals(text, 'a forced 500');
  });

  it('when the mock itself throws (the stack goes to stderr only)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // What answers the API, behind the mock's one entry, rejects: a bug the entry's safety net
    // turns into a 500.
    const { mock: broken } = await assemble({}, () => async () => {
      throw new Error(`${SECRET} at ${ROOT}src/core/secret.ts:12:3`);
    });
    const running = await start({ mock: broken });
    await expectBare500(running.url);
    expect(String(errors.mock.calls[0]?.[0])).toContain(SECRET);
  });

  it('when an operation throws inside the core', async () => {
    const { mock, state } = await assemble();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    state.store.collectionsOf = () => {
      throw new TypeError(`${SECRET}: cannot read properties of undefined`);
    };
    const running = await start({ mock });
    await expectBare500(running.url);
    expect(errors).toHaveBeenCalled();
    expect(String(errors.mock.calls[0]?.[0])).toContain('TypeError');
  });
});
