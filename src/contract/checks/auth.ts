import type { ClauseId } from '../../generated/clauses.ts';
import { defineCheck, judgeStatus, type CheckContext } from '../check.ts';
import { ACCEPTED_FORM_CLAUSE, CREDENTIAL_CLAUSE } from '../judges/clause-of.ts';
import { challenged } from '../judges/document.ts';
import { refusalShowsNothing } from '../judges/reads.ts';
import { answers } from '../judges/status.ts';
import { refusedWriteChangedNothing } from '../judges/values.ts';
import { together, type Verdict } from '../judges/verdict.ts';
import { shorten } from '../runner/run-data.ts';
import { authRequests, refusedName, type AuthRequest } from './auth-requests.ts';
import { malformedKeyHeaders } from './key-headers.ts';

/** Ids and names the full key can see: none of them may appear in a refusal. */
async function secrets(context: CheckContext): Promise<string[]> {
  const { target } = context;
  if (!target.offers('listCollections')) return [];
  const listed = target.itemsOf((await target.send('listCollections')).json) ?? [];
  return listed
    .flatMap((summary) => [target.collectionIdOf(summary), target.nameOf(summary)])
    .filter((s): s is string => typeof s === 'string' && s.length > 3);
}

/**
 * Sends every request with `headers` instead of a key; each must answer 401 (judged under
 * `clause`: which refusal it is) and leak nothing.
 */
async function expectRefusals(
  context: CheckContext,
  clause: ClauseId,
  headers: Record<string, string>,
  requests: AuthRequest[],
  what: string,
): Promise<void> {
  const { target, run } = context;
  if (requests.length === 0) context.skip('the target description offers no operation to send');
  const hidden = await secrets(context);
  const verdicts: Verdict[] = [];
  // @note Reads and the writes before the last go out together; the delete of the scratch
  // collection goes last (within this set of headers), so that a broken target that accepts it
  // has taken every other one first.
  const last = requests.at(-1)?.operation === 'deleteCollection' ? requests.at(-1) : undefined;
  const refuse = async (request: AuthRequest) => {
    const response = await target.send(request.operation, {
      key: null,
      headers,
      params: request.params,
      body: request.body,
    });
    if (
      response.status >= 200 &&
      response.status < 300 &&
      request.operation === 'createCollection'
    ) {
      const collection = target.collectionIn(response.json);
      const id = target.collectionIdOf(collection);
      const name = (request.body as { name?: unknown } | undefined)?.name;
      if (id && typeof name === 'string') run.track(id, name, collection);
    }
    verdicts.push(
      answers(clause, response, 401, {
        statuses: target.statuses,
        exact: context.profile,
        when: `with ${what}`,
      }),
    );
    const leaked = hidden.find((secret) => response.text.includes(secret));
    verdicts.push(
      refusalShowsNothing(
        `${response.method} ${response.path} with ${what}`,
        leaked && `"${shorten(leaked, 40)}" in a refusal`,
      ),
    );
  };
  await Promise.all(requests.filter((request) => request !== last).map(refuse));
  if (last) await refuse(last);
  const verdict = together(verdicts);
  if (verdict) context.judged(verdict);
}

/** A key that must be refused in either stated header form, every request in both. */
async function refusedInBothForms(
  context: CheckContext,
  clause: ClauseId,
  key: string,
  what: string,
  label: string,
): Promise<void> {
  const requests = await authRequests(context, { writes: true, label });
  await Promise.all([
    expectRefusals(context, clause, { authorization: `Bearer ${key}` }, requests, what),
    expectRefusals(
      context,
      clause,
      { 'x-answers-api-key': key },
      requests,
      `${what} in X-Answers-API-Key`,
    ),
  ]);
}

/** Sends the described reads with `headers`: each must answer a success (judged under `clause`). */
async function expectAccepted(
  context: CheckContext,
  clause: ClauseId,
  headers: Record<string, string>,
  what: string,
) {
  const reads = (await authRequests(context, { writes: false })).filter((r) => !r.writes);
  if (reads.length === 0) context.skip('the target description offers no operation to read with');
  const responses = await Promise.all(
    reads.map((request) =>
      context.target.send(request.operation, {
        key: null,
        headers,
        params: request.params,
        body: request.body,
      }),
    ),
  );
  for (const response of responses) judgeStatus(context, clause, response, 200, `with ${what}`);
}

export const authChecks = [
  defineCheck({
    id: 'auth.missing-key',
    title: 'refuses every operation without a key with 401 and no data',
    level: 'spec',
    async run(context) {
      await expectRefusals(
        context,
        CREDENTIAL_CLAUSE.none,
        {},
        await authRequests(context, { writes: true, label: 'missing-key' }),
        'no key',
      );
    },
  }),
  defineCheck({
    id: 'auth.malformed-header',
    title: 'refuses wrongly formed key headers with 401',
    level: 'spec',
    async run(context) {
      const requests = await authRequests(context, { writes: true, label: 'malformed-header' });
      const forms = malformedKeyHeaders(context.keys.full);
      await Promise.all(
        forms.map(([what, headers]) =>
          expectRefusals(context, CREDENTIAL_CLAUSE.malformed, headers, requests, what),
        ),
      );
    },
  }),
  defineCheck({
    id: 'auth.unknown-key',
    title: 'refuses an unknown key with 401, in either header',
    level: 'spec',
    async run(context) {
      const unknown = `answers_contract_unknown_${context.run.runId}`;
      await refusedInBothForms(
        context,
        CREDENTIAL_CLAUSE.unknown,
        unknown,
        'an unknown key',
        'unknown-key',
      );
    },
  }),
  defineCheck({
    id: 'auth.inactive-key',
    title: 'refuses an inactive key with 401, in either header',
    level: 'spec',
    needs: ['inactiveKey'],
    async run(context) {
      await refusedInBothForms(
        context,
        CREDENTIAL_CLAUSE.inactive,
        context.keys.inactive!,
        'an inactive key',
        'inactive-key',
      );
    },
  }),
  defineCheck({
    id: 'auth.missing-permission',
    title: 'refuses each described write with a read-only key with 401, and changes nothing',
    level: 'spec',
    needs: ['readonlyKey', 'destructive'],
    async run(context) {
      const { target } = context;
      const label = 'permission';
      const writes = (await authRequests(context, { writes: true, label })).filter((r) => r.writes);
      if (writes.length === 0) context.skip('the target description offers no write operation');
      await expectRefusals(
        context,
        CREDENTIAL_CLAUSE.readonly,
        { authorization: `Bearer ${context.keys.readonly}` },
        writes,
        'a read-only key',
      );
      const scratch = writes.find((r) => r.operation === 'deleteCollection')?.params?.collection_id;
      if (scratch && target.offers('getCollection')) {
        const still = await target.send('getCollection', { params: { collection_id: scratch } });
        judgeStatus(
          context,
          CREDENTIAL_CLAUSE.readonly,
          still,
          200,
          '(a collection a refused delete must have left)',
        );
      }
      if (target.offers('listCollections')) {
        const name = refusedName(context.run.runId, label);
        const made = (await target.walkCollections()).filter((s) =>
          JSON.stringify(s).includes(`"${name}"`),
        );
        context.judged(refusedWriteChangedNothing(made.length));
      }
    },
  }),
  defineCheck({
    id: 'auth.bearer-accepted',
    title: 'accepts a valid key as Authorization: Bearer (any letter case of the scheme)',
    level: 'spec',
    async run(context) {
      for (const scheme of ['Bearer', 'bearer'])
        await expectAccepted(
          context,
          ACCEPTED_FORM_CLAUSE.bearer,
          { authorization: `${scheme} ${context.keys.full}` },
          `"${scheme} <key>"`,
        );
    },
  }),
  defineCheck({
    id: 'auth.api-key-header-accepted',
    title: 'accepts a valid key as X-Answers-API-Key',
    level: 'spec',
    async run(context) {
      await expectAccepted(
        context,
        ACCEPTED_FORM_CLAUSE.apiKeyHeader,
        { 'x-answers-api-key': context.keys.full },
        'X-Answers-API-Key',
      );
    },
  }),
  defineCheck({
    id: 'auth.both-headers',
    title: 'accepts the same key in both headers and refuses two different keys with 401',
    level: 'profile',
    needs: ['otherAccountKey'],
    uses: ['listCollections'],
    async run(context) {
      const { full, otherAccount } = context.keys;
      const same = await context.target.send('listCollections', {
        key: null,
        headers: { authorization: `Bearer ${full}`, 'x-answers-api-key': full },
      });
      judgeStatus(context, CREDENTIAL_CLAUSE.twoKeys, same, 200, '(the same key in both headers)');
      await expectRefusals(
        context,
        CREDENTIAL_CLAUSE.twoKeys,
        { authorization: `Bearer ${full}`, 'x-answers-api-key': otherAccount! },
        await authRequests(context, { writes: true, label: 'both-headers' }),
        'two different keys',
      );
    },
  }),
  defineCheck({
    id: 'auth.challenge',
    title: 'sends a Bearer challenge (WWW-Authenticate) and a problem body with every 401',
    level: 'profile',
    uses: ['listCollections'],
    async run(context) {
      const cases: Array<[string, Record<string, string>, string | undefined]> = [
        ['no key', {}, undefined],
        ['a malformed header', { authorization: 'Basic x' }, 'invalid_request'],
        [
          'an unknown key',
          { authorization: `Bearer answers_contract_unknown_${context.run.runId}` },
          'invalid_token',
        ],
      ];
      for (const [what, headers, error] of cases) {
        const response = await context.target.send('listCollections', { key: null, headers });
        context.judged(
          challenged(
            what,
            response.headers.get('www-authenticate') ?? '',
            error,
            (response.json as { code?: unknown } | undefined)?.code,
          ),
        );
      }
    },
  }),
];
