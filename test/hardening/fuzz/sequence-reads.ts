/**
 * The reads of the random sequences: list walks, search, and the invariants checked through every
 * read path after every step.
 */
import type { AnswersMock } from '../../../src/index.ts';
import { jsonEqual, send, type Observed } from '../fuzz-support.ts';
import {
  ACCOUNTS,
  check,
  checkCollection,
  checkObject,
  conforms,
  expectProblem,
  findCollection,
  KEY,
  liveObjects,
  Mismatch,
  OTHER,
  resolveCollection,
  wordsOf,
  type Model,
} from './sequence-model.ts';
import { VOCABULARY, type Account, type Walk } from './sequence-operations.ts';

/** Walks every page of a list, checking each page; returns the items. */
async function walkList(
  mock: AnswersMock,
  as: Account,
  operationId: string,
  path: string,
  limit: number,
  order: 'asc' | 'desc',
  bound: number,
): Promise<Observed | any[]> {
  const items: any[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let pages = 0; pages <= bound + 1; pages++) {
    const query = new URLSearchParams({ limit: String(limit), order });
    if (cursor) query.set('cursor', cursor);
    const page = await send(mock, KEY[as], 'GET', `${path}?${query}`);
    conforms(operationId, `GET ${path}`, page);
    if (page.status !== 200) return page;
    const { data, has_more: hasMore, next_cursor: next } = page.json;
    check(data.length <= limit, `GET ${path}: ${data.length} items on a page of ${limit}`);
    check(hasMore === (next !== null), `GET ${path}: has_more ${hasMore} with cursor ${next}`);
    check(!hasMore || data.length === limit, `GET ${path}: a short page before the end`);
    for (const item of data) {
      check(!seen.has(item.id), `GET ${path}: ${item.id} repeats within one walk`);
      seen.add(item.id);
      items.push(item);
    }
    cursor = next;
    if (!cursor) return items;
  }
  throw new Mismatch(`GET ${path}: the walk did not end after ${bound + 1} pages`);
}

export async function checkListCollections(
  mock: AnswersMock,
  model: Model,
  as: Account,
  limit: number,
  order: 'asc' | 'desc',
): Promise<void> {
  const want = model[as].collections;
  const items = await walkList(
    mock,
    as,
    'listCollections',
    '/collections',
    limit,
    order,
    want.length,
  );
  check(Array.isArray(items), `list collections of ${as} answered ${(items as Observed).status}`);
  const ordered = order === 'asc' ? want : [...want].reverse();
  check(
    jsonEqual(
      items.map((i) => i.id),
      ordered.map((c) => c.id),
    ),
    `list collections of ${as} (limit ${limit}, ${order}): ${items.map((i) => i.id)} != model ${ordered.map((c) => c.id)}`,
  );
  items.forEach((item, i) => checkCollection(`list collections of ${as}`, item, ordered[i]!));
}

export async function checkListObjects(
  mock: AnswersMock,
  model: Model,
  as: Account,
  c: string,
  limit: number,
  order: 'asc' | 'desc',
): Promise<void> {
  const collection = findCollection(model, as, c);
  const result = await walkList(
    mock,
    as,
    'listObjects',
    `/collections/${c}/objects`,
    limit,
    order,
    collection?.objects.length ?? 0,
  );
  if (!collection) {
    check(!Array.isArray(result), `list objects of ${c} as ${as}: listed a missing collection`);
    return expectProblem(`list objects of ${c}`, result, 404, 'collection_not_found');
  }
  check(Array.isArray(result), `list objects of ${c} as ${as}: ${(result as Observed).status}`);
  const ordered = order === 'asc' ? collection.objects : [...collection.objects].reverse();
  check(
    result.length === ordered.length,
    `list objects of ${c} (limit ${limit}, ${order}): ${result.map((o) => o.id)} != model ${ordered.map((o) => o.id)}`,
  );
  result.forEach((item, i) => checkObject(`list objects of ${c}`, item, ordered[i]!));
}

export async function checkSearch(
  mock: AnswersMock,
  model: Model,
  op: Extract<Walk, { op: 'search' }>,
): Promise<void> {
  const { as } = op;
  const ids = op.in?.map((r) => resolveCollection(model, as, r));
  const label = `search ${JSON.stringify(op.word)} as ${as} in ${ids ?? 'all'}`;
  const word = op.word.toLowerCase();
  const body: Record<string, unknown> = { query: op.word, limit: op.limit };
  if (ids) body.collection_ids = ids;
  let response = await send(mock, KEY[as], 'POST', '/search', body);
  conforms('searchObjects', label, response);
  if (ids && new Set(ids).size !== ids.length)
    return expectProblem(label, response, 400, 'validation_failed');
  const missing = ids?.find((id) => !findCollection(model, as, id));
  if (missing) return expectProblem(label, response, 404, 'collection_not_found');
  const scope = model[as].collections.filter((c) => !ids || ids.includes(c.id));
  const want = scope.flatMap((c) => c.objects).filter((o) => wordsOf(o.content).has(word));
  const seen = new Map<string, any>();
  let lastScore = Infinity;
  for (let pages = 0; pages <= want.length + 1; pages++) {
    check(response.status === 200, `${label}: ${response.status} ${response.text.slice(0, 200)}`);
    check(response.json.total === want.length, `${label}: total ${response.json.total}`);
    for (const hit of response.json.data) {
      check(!seen.has(hit.object.id), `${label}: ${hit.object.id} repeats`);
      check(hit.score <= lastScore, `${label}: scores are not descending`);
      check(hit.collection_id === hit.object.collection_id, `${label}: hit collection`);
      lastScore = hit.score;
      seen.set(hit.object.id, hit.object);
    }
    if (!response.json.next_cursor) break;
    response = await send(mock, KEY[as], 'POST', '/search', {
      ...body,
      cursor: response.json.next_cursor,
    });
    conforms('searchObjects', label, response);
  }
  check(
    seen.size === want.length && want.every((o) => seen.has(o.id)),
    `${label}: found ${[...seen.keys()]}, the model expects ${want.map((o) => o.id)}`,
  );
  for (const object of want) checkObject(label, seen.get(object.id), object);
}

/** The invariants checked after every step, through every read path. */
export async function checkInvariants(
  mock: AnswersMock,
  model: Model,
  step: number,
): Promise<void> {
  const limit = 1 + (step % 4);
  for (const as of ACCOUNTS) {
    const account = model[as];
    // Lists: exactly the model's collections, in creation order, with true counts.
    await checkListCollections(mock, model, as, limit, 'asc');
    for (const collection of account.collections) {
      // Counts equal retrievable objects; every object complete and current.
      await checkListObjects(mock, model, as, collection.id, 1 + (step % 3), 'asc');
    }
    // Deleted things are gone.
    for (const c of account.deletedCollections) {
      const got = await send(mock, KEY[as], 'GET', `/collections/${c}`);
      expectProblem(`GET deleted collection ${c} as ${as}`, got, 404, 'collection_not_found');
    }
    for (const { c, o } of account.deletedObjects) {
      const got = await send(mock, KEY[as], 'GET', `/collections/${c}/objects/${o}`);
      check(got.status === 404, `GET deleted object ${o} as ${as}: ${got.status}`);
    }
    // No cross-account visibility.
    const other = KEY[OTHER[as]];
    for (const collection of account.collections) {
      const got = await send(mock, other, 'GET', `/collections/${collection.id}`);
      expectProblem(
        `GET ${as}'s ${collection.id} as ${OTHER[as]}`,
        got,
        404,
        'collection_not_found',
      );
      for (const object of collection.objects) {
        const obj = await send(
          mock,
          other,
          'GET',
          `/collections/${collection.id}/objects/${object.id}`,
        );
        check(obj.status === 404, `GET ${as}'s object ${object.id} as ${OTHER[as]}: ${obj.status}`);
      }
    }
    // Search, one word per step (deleted objects and other accounts' objects are never hits).
    await checkSearch(mock, model, {
      op: 'search',
      as,
      word: VOCABULARY[step % VOCABULARY.length]!,
      limit: 100,
    });
  }
  // The store holds exactly the live resources: nothing deleted is retained, no orphans.
  const state = mock.controls.export();
  const liveCollections = ACCOUNTS.flatMap((as) => model[as].collections.map((c) => c.id));
  const liveObjectIds = ACCOUNTS.flatMap((as) => liveObjects(model[as]).map((o) => o.id));
  check(
    jsonEqual(state.collections.map((c) => c.id).sort(), [...liveCollections].sort()),
    `the store holds collections ${state.collections.map((c) => c.id)}, the model ${liveCollections}`,
  );
  check(
    jsonEqual(state.objects.map((o) => o.id).sort(), [...liveObjectIds].sort()),
    `the store holds objects ${state.objects.map((o) => o.id)}, the model ${liveObjectIds}`,
  );
}
