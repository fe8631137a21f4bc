import { defineCheck, ensure, type CheckContext } from '../check.ts';
import { itemsOf } from '../data.ts';
import { authTargets, type AuthTarget } from './auth-targets.ts';
import { malformedKeyHeaders } from './malformed-headers.ts';

/** Names and ids of what the full key can see: none of it may appear in a refusal. */
async function secrets(context: CheckContext): Promise<string[]> {
  const listed = await context.http.request('GET', '/collections');
  return (itemsOf(listed.json) ?? [])
    .flatMap((c: any) => [c.id, c.name])
    .filter((s: unknown) => typeof s === 'string' && s.length > 3);
}

/**
 * Sends every target with the given headers and expects exactly 401, no data in the body, and
 * (profile) the documented problem body and challenge.
 */
async function expectRefusals(
  context: CheckContext,
  headers: Record<string, string>,
  targets: AuthTarget[],
  what: string,
) {
  const hidden = await secrets(context);
  const failures: string[] = [];
  for (const target of targets) {
    const response = await context.http.request(target.method, target.path, {
      key: null,
      headers,
      body: target.body,
      operationId: target.operationId,
    });
    if (
      response.status >= 200 &&
      response.status < 300 &&
      target.operationId === 'createCollection'
    ) {
      context.data.track(response.json?.id);
    }
    if (response.status !== 401)
      failures.push(
        `${target.method} ${target.path} with ${what} answered ${response.status}, not 401`,
      );
    const leaked = hidden.find((secret) => response.text.includes(secret));
    if (leaked)
      failures.push(`${target.method} ${target.path} with ${what} leaked "${leaked}" in a refusal`);
  }
  ensure(failures.length === 0, failures.join('; '));
}

export const authChecks = [
  defineCheck({
    id: 'auth.missing-key.profile',
    title: 'refuses every operation without a key with 401 and no data',
    clauses: ['AUTH-1', 'AUTH-5', 'ERR-401-3', 'GAP-401-VS-403'],
    level: 'profile',
    async run(context) {
      await expectRefusals(context, {}, await authTargets(context, { writes: true }), 'no key');
    },
  }),
  defineCheck({
    id: 'auth.malformed-header.profile',
    title: 'refuses wrongly formed key headers with 401',
    clauses: ['ERR-401-4', 'AUTH-5', 'GAP-AUTH-FORM'],
    level: 'profile',
    async run(context) {
      const targets = await authTargets(context, { writes: true });
      const forms = malformedKeyHeaders(context.keys.full);
      for (const [what, headers] of forms) await expectRefusals(context, headers, targets, what);
    },
  }),
  defineCheck({
    id: 'auth.unknown-key.profile',
    title: 'refuses an unknown key with 401',
    clauses: ['ERR-401-1', 'AUTH-5'],
    level: 'profile',
    async run(context) {
      const unknown = `answers_contract_unknown_${context.data.runId}`;
      await expectRefusals(
        context,
        { authorization: `Bearer ${unknown}` },
        await authTargets(context, { writes: true }),
        'an unknown key',
      );
    },
  }),
  defineCheck({
    id: 'auth.inactive-key.profile',
    title: 'refuses an inactive key with 401',
    clauses: ['ERR-401-2', 'AUTH-5'],
    level: 'profile',
    needs: ['inactiveKey'],
    async run(context) {
      const targets = await authTargets(context, { writes: true });
      await expectRefusals(
        context,
        { authorization: `Bearer ${context.keys.inactive}` },
        targets,
        'an inactive key',
      );
      await expectRefusals(
        context,
        { 'x-answers-api-key': context.keys.inactive! },
        targets,
        'an inactive key in X-Answers-API-Key',
      );
    },
  }),
  defineCheck({
    id: 'auth.missing-permission.profile',
    title: 'refuses a write with a read-only key with 401 (not 403)',
    clauses: ['ERR-401-5', 'AUTH-2', 'GAP-PERMISSIONS', 'GAP-401-VS-403'],
    level: 'profile',
    needs: ['readonlyKey', 'destructive'],
    async run(context) {
      const writes = (await authTargets(context, { writes: true })).filter((t) => t.writes);
      if (writes.length === 0)
        context.skip('the spec states no path of a write operation (--spec-only)');
      await expectRefusals(
        context,
        { authorization: `Bearer ${context.keys.readonly}` },
        writes,
        'a read-only key',
      );
    },
  }),
  defineCheck({
    id: 'auth.bearer-accepted.profile',
    title: 'accepts a valid key as Authorization: Bearer (any letter case of the scheme)',
    clauses: ['AUTH-3'],
    level: 'profile',
    async run(context) {
      for (const target of (await authTargets(context, { writes: false })).filter(
        (t) => !t.writes,
      )) {
        for (const scheme of ['Bearer', 'bearer']) {
          const response = await context.http.request(target.method, target.path, {
            key: null,
            headers: { authorization: `${scheme} ${context.keys.full}` },
            body: target.body,
            operationId: target.operationId,
          });
          ensure(
            response.status === 200,
            `${target.method} ${target.path} with "${scheme} <key>" answered ${response.status}, not 200`,
          );
        }
      }
    },
  }),
  defineCheck({
    id: 'auth.api-key-header-accepted.profile',
    title: 'accepts a valid key as X-Answers-API-Key',
    clauses: ['AUTH-4'],
    level: 'profile',
    async run(context) {
      for (const target of (await authTargets(context, { writes: false })).filter(
        (t) => !t.writes,
      )) {
        const response = await context.http.request(target.method, target.path, {
          key: null,
          headers: { 'x-answers-api-key': context.keys.full },
          body: target.body,
          operationId: target.operationId,
        });
        ensure(
          response.status === 200,
          `${target.method} ${target.path} with X-Answers-API-Key answered ${response.status}, not 200`,
        );
      }
    },
  }),
  defineCheck({
    id: 'auth.both-headers',
    title: 'accepts the same key in both headers and refuses two different keys with 401',
    clauses: ['GAP-AUTH-PRECEDENCE'],
    level: 'profile',
    needs: ['otherAccountKey'],
    async run(context) {
      const same = await context.http.request('GET', '/collections', {
        key: null,
        headers: {
          authorization: `Bearer ${context.keys.full}`,
          'x-answers-api-key': context.keys.full,
        },
        operationId: 'listCollections',
      });
      ensure(same.status === 200, `the same key in both headers answered ${same.status}, not 200`);
      const targets = await authTargets(context, { writes: true });
      await expectRefusals(
        context,
        {
          authorization: `Bearer ${context.keys.full}`,
          'x-answers-api-key': context.keys.otherAccount!,
        },
        targets,
        'two different keys',
      );
    },
  }),
  defineCheck({
    id: 'auth.challenge',
    title: 'sends a Bearer challenge (WWW-Authenticate) and a problem body with every 401',
    clauses: ['GAP-AUTH-CHALLENGE', 'GAP-ERR-BODY'],
    level: 'profile',
    async run(context) {
      const cases: Array<[string, Record<string, string>, string | undefined]> = [
        ['no key', {}, undefined],
        ['a malformed header', { authorization: 'Basic x' }, 'invalid_request'],
        [
          'an unknown key',
          { authorization: `Bearer answers_contract_unknown_${context.data.runId}` },
          'invalid_token',
        ],
      ];
      for (const [what, headers, error] of cases) {
        const response = await context.http.request('GET', '/collections', {
          key: null,
          headers,
          operationId: 'listCollections',
        });
        const challenge = response.headers.get('www-authenticate') ?? '';
        ensure(
          /^Bearer\b/i.test(challenge),
          `a 401 for ${what} has no Bearer challenge (WWW-Authenticate: "${challenge}")`,
        );
        if (error)
          ensure(
            challenge.includes(`error="${error}"`),
            `the challenge for ${what} lacks error="${error}": "${challenge}"`,
          );
        ensure(typeof response.json?.code === 'string', `the 401 for ${what} has no problem code`);
      }
    },
  }),
];
