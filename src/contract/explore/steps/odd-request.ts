/**
 * Requests a well-behaved client never makes, which a target must refuse as the model does: keys
 * in each form the spec states or that it does not, bodies that are not JSON, ids that name
 * nothing. At `--level profile` also what only our document decides: a method a path does not
 * offer, a page size or token it refuses, fields a body may not carry, two keys at once.
 */
import * as fc from '../fast-check.ts';
import { ODD_REQUEST_CLAUSE } from '../../judges/clause-of.ts';
import type { SendBoth } from '../comparison.ts';
import { ok } from '../../judges/status.ts';
import type { World } from '../world.ts';
import { stepKind, type KeyName } from '../step-kind.ts';

/** Odd requests any target is held to (the spec's clauses). */
const SPEC_ODDITIES = [
  'unknownId',
  'malformedJson',
  'xApiKey',
  'lowercaseBearer',
  'basicScheme',
  'bearerExtra',
  'noKey',
  'invalidKey',
  'badBodyNoKey',
] as const;

/** Odd requests only `--level profile` makes (our document's decisions). */
const PROFILE_ODDITIES = [
  'wrongMethod',
  'conflictingKeys',
  'badPageSize',
  'tamperedToken',
  'unknownField',
] as const;

type Oddity = (typeof SPEC_ODDITIES)[number] | (typeof PROFILE_ODDITIES)[number];

/** What each odd request is, in words (its clause: ODD_REQUEST_CLAUSE). */
const SAYS: Record<Oddity, string> = {
  unknownId: 'get a collection by an id that names nothing',
  malformedJson: 'create a collection with a body that is not JSON',
  xApiKey: 'list collections, the key in X-Answers-API-Key',
  lowercaseBearer: 'list collections, the key as "bearer <key>"',
  basicScheme: 'list collections, the key as "Basic <key>"',
  bearerExtra: 'list collections, the key as "Bearer <key> extra"',
  noKey: 'list collections with no key',
  invalidKey: 'list collections with a key that does not exist',
  badBodyNoKey: 'create a collection with an empty body and no key',
  wrongMethod: 'PUT on the list of collections',
  conflictingKeys: 'list collections with two different keys, one in each header',
  badPageSize: 'list collections with a page size of 0',
  tamperedToken: 'list collections with a made-up page token',
  unknownField: 'create a collection whose body also sets a system field (version)',
};

async function sendOdd(world: World, odd: Oddity): Promise<void> {
  const full = (side: 'target' | 'model') =>
    (side === 'target' ? world.keys : world.modelKeys).full;
  const credential =
    (value: (key: string) => Record<string, string>) => (side: 'target' | 'model') =>
      value(full(side));
  const name = world.collectionName('odd');
  const paging = (side: 'target' | 'model') => world[side].description.paging;
  let operation: 'getCollection' | 'createCollection' | 'listCollections' = 'listCollections';
  let key: KeyName | null = null;
  let options: SendBoth = {};
  switch (odd) {
    case 'unknownId':
      operation = 'getCollection';
      key = 'full';
      options = { params: () => ({ collection_id: 'col_0answerscontract0000' }) };
      break;
    case 'malformedJson':
      operation = 'createCollection';
      key = 'full';
      options = { raw: `{"name": "${name}", "metadata": ` };
      break;
    case 'xApiKey':
      options = { headers: credential((k) => ({ 'x-answers-api-key': k })) };
      break;
    case 'lowercaseBearer':
      options = { headers: credential((k) => ({ authorization: `bearer ${k}` })) };
      break;
    case 'basicScheme':
      options = { headers: credential((k) => ({ authorization: `Basic ${k}` })) };
      break;
    case 'bearerExtra':
      options = { headers: credential((k) => ({ authorization: `Bearer ${k} extra` })) };
      break;
    case 'noKey':
      break;
    case 'invalidKey':
      options = { headers: () => ({ authorization: 'Bearer answers-contract-no-such-key' }) };
      break;
    case 'badBodyNoKey':
      operation = 'createCollection';
      options = { raw: '{}' };
      break;
    case 'wrongMethod':
      return wrongMethod(world);
    case 'conflictingKeys': {
      const other = (['otherAccount', 'readonly'] as const).find((k) => world.keys[k]);
      if (!other) return;
      options = {
        headers: (side) => ({
          authorization: `Bearer ${full(side)}`,
          'x-answers-api-key': (side === 'target' ? world.keys : world.modelKeys)[other]!,
        }),
      };
      break;
    }
    case 'badPageSize':
      key = 'full';
      options = { query: (side) => ({ [paging(side).pageSize ?? 'limit']: '0' }) };
      break;
    case 'tamperedToken':
      key = 'full';
      options = { query: (side) => ({ [paging(side).pageToken ?? 'cursor']: 'bm90LWEtdG9rZW4' }) };
      break;
    case 'unknownField':
      operation = 'createCollection';
      key = 'full';
      options = { raw: JSON.stringify({ name, metadata: {}, version: 3 }) };
      break;
  }
  const [target, model] = await world.both(operation, key, options);
  const record = world.record(SAYS[odd], model, target);
  // A target that took what it should have refused made a collection: it goes with the rest.
  if (operation === 'createCollection' && ok(target.status)) {
    const answer = world.target.collectionIn(target.json);
    const id = world.target.collectionIdOf(answer);
    if (id) world.run.track(id, name, answer, world.keys.full);
  }
  world.answered(
    ODD_REQUEST_CLAUSE[odd],
    model,
    target,
    record,
    operation === 'getCollection' ? 'never' : 'notYours',
  );
}

/** A method the list's path does not offer (our document: 405 with `Allow`). */
async function wrongMethod(world: World): Promise<void> {
  world.coverage.count(world.coverage.operations, 'listCollections');
  world.requests += 2;
  const send = (side: 'target' | 'model') =>
    world[side].http.request('PUT', world[side].route('listCollections').path, {
      key: (side === 'target' ? world.keys : world.modelKeys).full,
      body: {},
    });
  const [target, model] = await Promise.all([send('target'), send('model')]);
  const sent = (response: typeof target) => ({ ...response, method: 'PUT', path: '' });
  const record = world.record(SAYS.wrongMethod, sent(model), sent(target));
  world.answered(ODD_REQUEST_CLAUSE.wrongMethod, sent(model), sent(target), record);
}

export const oddRequest = stepKind({
  kind: 'oddRequest',
  weight: 2,
  needs: ['listCollections', 'getCollection', 'createCollection'],
  fields: ({ profile }) => ({
    odd: fc.constantFrom<Oddity>(...SPEC_ODDITIES, ...(profile ? PROFILE_ODDITIES : [])),
  }),
  run: (world, step) => sendOdd(world, step.odd),
});
