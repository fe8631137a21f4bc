/**
 * The faults of authentication and permissions (src/faults/auth.ts). Each test sets a faulted mock
 * beside a correct one over the same seed: what the defect changes, and what it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import { send, violations, type Sent } from '../support/in-process.ts';
import { KEYS } from '../support/keys.ts';
import { acme, byName, mocks } from './mocks.ts';

describe('withFault', () => {
  it('auth-not-enforced: serves requests without a valid key as acme', async () => {
    const { plain, faulty } = await mocks('auth-not-enforced');
    const bad: Array<[Sent, string]> = [
      [{ path: '/collections', key: null }, 'missing_credentials'],
      [{ path: '/collections', key: 'answers_test_nope' }, 'invalid_api_key'],
      [{ path: '/collections', key: KEYS.inactive }, 'inactive_api_key'],
      [
        { path: '/collections', key: null, headers: { authorization: 'Basic abc' } },
        'malformed_credentials',
      ],
    ];
    for (const [sent, code] of bad) {
      const correct = await send(plain, sent);
      expect(correct.status).toBe(401);
      expect(correct.json.code).toBe(code);
      const served = await send(faulty, sent);
      expect(served.status, code).toBe(200);
      expect(served.json.data.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    }
    // Permissions are still checked: only authentication is broken.
    const denied = { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly };
    expect((await send(faulty, denied)).json.code).toBe('insufficient_permission');
  });

  it('forbidden-instead-of-unauthorized: answers 403 where the spec says 401', async () => {
    const { plain, faulty } = await mocks('forbidden-instead-of-unauthorized');
    const cases: Sent[] = [
      { path: '/collections', key: null },
      { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly },
    ];
    for (const sent of cases) {
      const correct = await send(plain, sent);
      const wrong = await send(faulty, sent);
      expect([correct.status, correct.json.status]).toEqual([401, 401]);
      expect([wrong.status, wrong.json.status]).toEqual([403, 403]);
      expect(wrong.json.code).toBe(correct.json.code);
      expect(wrong.headers).toEqual(correct.headers);
    }
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
  });

  it('header-form-ignored: a key sent only as X-Answers-API-Key gets 401', async () => {
    const { plain, faulty } = await mocks('header-form-ignored');
    const sent: Sent = {
      path: '/collections',
      key: null,
      headers: { 'x-answers-api-key': KEYS.full },
    };
    expect((await send(plain, sent)).status).toBe(200);
    const refused = await send(faulty, sent);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('missing_credentials');
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
  });

  it('permission-not-enforced: a read-only key can delete', async () => {
    const { plain, faulty } = await mocks('permission-not-enforced');
    const target = byName('Glossary');
    const sent: Sent = { method: 'DELETE', path: `/collections/${target.id}`, key: KEYS.readonly };
    const correct = await send(plain, sent);
    expect(correct.status).toBe(401);
    expect(correct.json.code).toBe('insufficient_permission');
    expect((await send(faulty, sent)).status).toBe(204);
    expect((await send(faulty, { path: `/collections/${target.id}` })).status).toBe(404);
    // Authentication itself still works.
    expect((await send(faulty, { ...sent, key: 'answers_test_nope' })).status).toBe(401);
  });

  it('bearer-scheme-case-sensitive: "bearer <key>" in lower case gets 401', async () => {
    const { plain, faulty } = await mocks('bearer-scheme-case-sensitive');
    const lower: Sent = {
      path: '/collections',
      key: null,
      headers: { authorization: `bearer ${KEYS.full}` },
    };
    expect((await send(plain, lower)).status).toBe(200);
    const refused = await send(faulty, lower);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('malformed_credentials');
    expect(refused.headers['www-authenticate']).toContain('error="invalid_request"');
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
    // The route is still matched first.
    expect((await send(faulty, { ...lower, path: '/nowhere' })).status).toBe(404);
  });

  it('inactive-key-accepted: an inactive key is served like an active one', async () => {
    const { plain, faulty } = await mocks('inactive-key-accepted');
    const forms: Sent[] = [
      { path: '/collections', key: KEYS.inactive },
      { path: '/collections', key: null, headers: { 'x-answers-api-key': KEYS.inactive } },
    ];
    for (const sent of forms) {
      const correct = await send(plain, sent);
      expect(correct.status).toBe(401);
      expect(correct.json.code).toBe('inactive_api_key');
      const served = await send(faulty, sent);
      expect(served.status).toBe(200);
      expect(served.json.data.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    }
    expect((await send(faulty, { path: '/collections', key: 'answers_test_nope' })).status).toBe(
      401,
    );
    const denied = { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly };
    expect((await send(faulty, denied)).json.code).toBe('insufficient_permission');
  });

  it('malformed-header-accepted: any scheme and extra parts are read as "<scheme> <key>"', async () => {
    const { plain, faulty } = await mocks('malformed-header-accepted');
    const header = (authorization: string): Sent => ({
      path: '/collections',
      key: null,
      headers: { authorization },
    });
    for (const value of [`Basic ${KEYS.full}`, `Bearer ${KEYS.full} extra`]) {
      const correct = await send(plain, header(value));
      expect(correct.status, value).toBe(401);
      expect(correct.json.code).toBe('malformed_credentials');
      const served = await send(faulty, header(value));
      expect(served.status, value).toBe(200);
      expect(served.json.data).toHaveLength(acme.length);
    }
    // Still refused: no key at all in the header, or a key that is not valid.
    expect((await send(faulty, header('Bearer'))).json.code).toBe('malformed_credentials');
    expect((await send(faulty, header(''))).status).toBe(401);
    expect((await send(faulty, header('Basic answers_test_nope'))).json.code).toBe(
      'invalid_api_key',
    );
  });

  it('conflicting-keys-first-wins: Authorization wins over a different X-Answers-API-Key', async () => {
    const { plain, faulty } = await mocks('conflicting-keys-first-wins');
    const both = (bearer: string, header: string): Sent => ({
      path: '/collections',
      key: bearer,
      headers: { 'x-answers-api-key': header },
    });
    const correct = await send(plain, both(KEYS.full, KEYS.globex));
    expect(correct.status).toBe(401);
    expect(correct.json.code).toBe('conflicting_api_keys');
    const acmeIds = acme.map((c) => c.id);
    const served = await send(faulty, both(KEYS.full, KEYS.globex));
    expect(served.status).toBe(200);
    expect(served.json.data.map((c: any) => c.id)).toEqual(acmeIds);
    const reversed = await send(faulty, both(KEYS.globex, KEYS.full));
    expect(reversed.status).toBe(200);
    expect(reversed.json.data.map((c: any) => c.id)).not.toContain(acmeIds[0]);
    expect((await send(faulty, both(KEYS.full, KEYS.full))).status).toBe(200);
  });

  it('no-challenge: a 401 lacks WWW-Authenticate', async () => {
    const { plain, faulty } = await mocks('no-challenge');
    const cases: Sent[] = [
      { path: '/collections', key: null },
      { path: '/collections', key: 'answers_test_nope' },
      { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly },
    ];
    for (const sent of cases) {
      const correct = await send(plain, sent);
      expect(correct.headers['www-authenticate']).toMatch(/^Bearer realm="answers"/);
      const wrong = await send(faulty, sent);
      expect([wrong.status, wrong.json.code]).toEqual([401, correct.json.code]);
      expect(wrong.headers).not.toHaveProperty('www-authenticate');
    }
    expect(await violations(faulty, 'listCollections', cases[0]!)).toEqual([
      'header WWW-Authenticate is missing',
    ]);
  });
});
