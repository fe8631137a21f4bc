/**
 * Random sequences of API operations against a fresh mock, checked step by step against a simple
 * model kept here. Operations are plain JSON ({@link Op}) so that a shrunk counterexample can be
 * pasted into a regression test and replayed with {@link replaySequence}.
 *
 * A `parallel` step sends its operations at once (Promise.all); its outcome must equal the
 * outcome of running them one after the other in some order (the mock must be serialisable).
 */
import fc from 'fast-check';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { validateResponse } from '../../src/openapi/response-validation.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { jsonEqual, send, type Json, type Observed } from './fuzz-support.ts';

export type Account = 'acme' | 'globex';
/** Which resource an operation targets, resolved against the model when the step runs. */
export type Ref = { live: number } | { deleted: number } | { foreign: number } | 'unknown';

type Single =
  | { op: 'createCollection'; as: Account; name: string }
  | { op: 'renameCollection'; as: Account; c: Ref; name: string }
  | { op: 'deleteCollection'; as: Account; c: Ref }
  | { op: 'getCollection'; as: Account; c: Ref }
  | { op: 'createObject'; as: Account; c: Ref; content: Json }
  | { op: 'replaceObject'; as: Account; o: Ref; content: Json }
  | { op: 'patchObject'; as: Account; o: Ref; patch: Json }
  | { op: 'deleteObject'; as: Account; o: Ref }
  | { op: 'getObject'; as: Account; o: Ref };

type Walk =
  | { op: 'listCollections'; as: Account; limit: number; order: 'asc' | 'desc' }
  | { op: 'listObjects'; as: Account; c: Ref; limit: number; order: 'asc' | 'desc' }
  | { op: 'search'; as: Account; word: string; limit: number; in?: Ref[] };

export type Op = Single | Walk | { op: 'parallel'; ops: Single[] };

const KEY: Record<Account, string> = {
  acme: 'answers_test_full_acme',
  globex: 'answers_test_full_globex',
};
const OTHER: Record<Account, Account> = { acme: 'globex', globex: 'acme' };
const ACCOUNTS: Account[] = ['acme', 'globex'];
const NAMES = ['n0', 'n1', 'n2', 'n3'];
/** Words of the contents; search queries pick from them (in any letter case). */
export const VOCABULARY = ['alpha', 'beta', 'gamma', 'Ümlaut', '数据', 'x1'];
const UNKNOWN_COLLECTION = 'col_00000000000000000000';
const UNKNOWN_OBJECT = 'obj_00000000000000000000';

// ---------------------------------------------------------------------------------------------
// Model

interface MObject {
  id: string;
  collection_id: string;
  content: Json;
  version: number;
  created_at: string;
  updated_at: string;
}
interface MCollection {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  objects: MObject[];
}
interface MAccount {
  collections: MCollection[];
  deletedCollections: string[];
  deletedObjects: Array<{ c: string; o: string }>;
}
export interface Model {
  acme: MAccount;
  globex: MAccount;
  /** The latest timestamp the mock handed out: every new one must be later. */
  clock: string;
  /** Every id ever handed out: ids are never reused. */
  ids: string[];
}

function emptyModel(): Model {
  const account = (): MAccount => ({ collections: [], deletedCollections: [], deletedObjects: [] });
  return { acme: account(), globex: account(), clock: '', ids: [] };
}

const liveObjects = (account: MAccount) => account.collections.flatMap((c) => c.objects);

/** RFC 7396, written independently of the mock's; keys are defined, so `__proto__` stays a key. */
function mergePatch(target: Json, patch: Json): Json {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? target : {};
  const entries = new Map<string, Json>(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) entries.delete(key);
    else entries.set(key, mergePatch(entries.get(key) ?? null, value));
  }
  return Object.fromEntries(entries);
}

/** The words of every string value of a content (GAP-SEARCH-MATCH: letters and digits). */
function wordsOf(value: Json, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const word of value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) out.add(word);
  } else if (Array.isArray(value)) value.forEach((v) => wordsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => wordsOf(v, out));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const ref: fc.Arbitrary<Ref> = fc.oneof(
  { weight: 10, arbitrary: fc.nat(50).map((live) => ({ live })) },
  { weight: 1, arbitrary: fc.nat(50).map((deleted) => ({ deleted })) },
  { weight: 1, arbitrary: fc.nat(50).map((foreign) => ({ foreign })) },
  { weight: 1, arbitrary: fc.constant('unknown' as const) },
);

const account = fc.constantFrom<Account>('acme', 'globex');
const text = fc
  .array(fc.constantFrom(...VOCABULARY, 'ALPHA', 'the'), { minLength: 1, maxLength: 4 })
  .chain((words) => fc.constantFrom(' ', ', ', '-', '.').map((sep) => words.join(sep)));
const key = fc.constantFrom('title', 'body', 'tags', 'n', 'meta', '__proto__', 'constructor', '');

const value: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer({ min: -1000, max: 1000 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }).map((e) => Object.fromEntries(e)),
  ),
})).value;

const content: fc.Arbitrary<Json> = fc
  .array(fc.tuple(key, value), { maxLength: 4 })
  .map((entries) => Object.fromEntries(entries));

const single: fc.Arbitrary<Single> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('createCollection' as const),
      as: account,
      name: fc.constantFrom(...NAMES),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('renameCollection' as const),
      as: account,
      c: ref,
      name: fc.constantFrom(...NAMES),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('deleteCollection' as const), as: account, c: ref }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('getCollection' as const), as: account, c: ref }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('createObject' as const),
      as: account,
      c: ref,
      content,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('replaceObject' as const),
      as: account,
      o: ref,
      content,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('patchObject' as const),
      as: account,
      o: ref,
      patch: content,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('deleteObject' as const), as: account, o: ref }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('getObject' as const), as: account, o: ref }),
  },
);

const limit = fc.integer({ min: 1, max: 7 });
const order = fc.constantFrom<'asc' | 'desc'>('asc', 'desc');

/** One random operation (a walk, a single request, or 2-3 requests at once). */
export const operation: fc.Arbitrary<Op> = fc.oneof(
  { weight: 14, arbitrary: single },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('listCollections' as const),
      as: account,
      limit,
      order,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('listObjects' as const),
      as: account,
      c: ref,
      limit,
      order,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        op: fc.constant('search' as const),
        as: account,
        word: fc
          .tuple(fc.constantFrom(...VOCABULARY), fc.boolean())
          .map(([w, upper]) => (upper ? w.toUpperCase() : w)),
        limit,
        in: fc.array(ref, { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['op', 'as', 'word', 'limit'] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('parallel' as const),
      ops: fc.array(single, { minLength: 2, maxLength: 3 }),
    }),
  },
);

/** A random sequence of operations. */
export const sequence = (maxLength: number) =>
  fc.array(operation, { minLength: 1, maxLength, size: 'medium' });

// ---------------------------------------------------------------------------------------------
// Running a sequence

class Mismatch extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Mismatch(message);
}

function conforms(operationId: string, label: string, response: Observed): void {
  const found = validateResponse(operationId, {
    status: response.status,
    headers: response.headers,
    body: response.text,
  });
  check(found.length === 0, `${label} -> ${response.status} breaks openapi.yaml: ${found}`);
}

function expectProblem(label: string, response: Observed, status: number, code: string): void {
  check(
    response.status === status && response.json?.code === code,
    `${label}: expected ${status} ${code}, got ${response.status} ${response.text.slice(0, 200)}`,
  );
}

function newTimestamp(model: Model, label: string, at: string): void {
  check(at > model.clock, `${label}: timestamp ${at} is not after ${model.clock}`);
  model.clock = at;
}

function newId(model: Model, label: string, id: string): void {
  check(!model.ids.includes(id), `${label}: id ${id} was handed out before`);
  model.ids.push(id);
}

/** A resolved request and how its response changes (and is checked against) the model. */
interface Prepared {
  label: string;
  operationId: string;
  method: string;
  path: string;
  as: Account;
  body?: unknown;
  apply(model: Model, response: Observed): void;
}

function resolveCollection(model: Model, as: Account, r: Ref): string {
  const own = model[as];
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  if (r === 'unknown') return UNKNOWN_COLLECTION;
  if ('live' in r) return pick(own.collections, r.live)?.id ?? UNKNOWN_COLLECTION;
  if ('deleted' in r) return pick(own.deletedCollections, r.deleted) ?? UNKNOWN_COLLECTION;
  return pick(model[OTHER[as]].collections, r.foreign)?.id ?? UNKNOWN_COLLECTION;
}

function resolveObject(model: Model, as: Account, r: Ref): { c: string; o: string } {
  const own = model[as];
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  const fallback = { c: own.collections[0]?.id ?? UNKNOWN_COLLECTION, o: UNKNOWN_OBJECT };
  if (r === 'unknown') return fallback;
  if ('deleted' in r) return pick(own.deletedObjects, r.deleted) ?? fallback;
  const list = 'live' in r ? liveObjects(own) : liveObjects(model[OTHER[as]]);
  const found = pick(list, 'live' in r ? r.live : r.foreign);
  return found ? { c: found.collection_id, o: found.id } : fallback;
}

function findCollection(model: Model, as: Account, id: string): MCollection | undefined {
  return model[as].collections.find((c) => c.id === id);
}

/** The object at c/o as the account sees it, or the 404 code the mock must answer. */
function locate(
  model: Model,
  as: Account,
  c: string,
  o: string,
):
  | { code: 'collection_not_found' | 'object_not_found' }
  | { collection: MCollection; object: MObject } {
  const collection = findCollection(model, as, c);
  if (!collection) return { code: 'collection_not_found' as const };
  const object = collection.objects.find((x) => x.id === o);
  return object ? { collection, object } : { code: 'object_not_found' as const };
}

function checkObject(label: string, got: any, want: MObject): void {
  check(
    got?.id === want.id &&
      got.collection_id === want.collection_id &&
      got.version === want.version &&
      got.created_at === want.created_at &&
      got.updated_at === want.updated_at &&
      jsonEqual(got.content, want.content),
    `${label}: object ${JSON.stringify(got)?.slice(0, 300)} is not ${JSON.stringify(want).slice(0, 300)}`,
  );
}

function checkCollection(label: string, got: any, want: MCollection): void {
  check(
    got?.id === want.id &&
      got.name === want.name &&
      got.object_count === want.objects.length &&
      got.created_at === want.created_at &&
      got.updated_at === want.updated_at,
    `${label}: collection ${JSON.stringify(got)} is not ${want.name} with ${want.objects.length} objects`,
  );
}

function prepare(model: Model, op: Single): Prepared {
  const as = op.as;
  const label = JSON.stringify(op).slice(0, 200);
  const base = { label, as };
  switch (op.op) {
    case 'createCollection':
      return {
        ...base,
        operationId: 'createCollection',
        method: 'POST',
        path: '/collections',
        body: { name: op.name },
        apply(m, r) {
          if (m[as].collections.some((c) => c.name === op.name))
            return expectProblem(label, r, 409, 'collection_name_taken');
          check(r.status === 201, `${label}: expected 201, got ${r.status} ${r.text}`);
          newId(m, label, r.json.id);
          newTimestamp(m, label, r.json.created_at);
          check(r.json.updated_at === r.json.created_at, `${label}: updated_at != created_at`);
          const created: MCollection = {
            id: r.json.id,
            name: op.name,
            created_at: r.json.created_at,
            updated_at: r.json.updated_at,
            objects: [],
          };
          checkCollection(label, r.json, created);
          m[as].collections.push(created);
        },
      };
    case 'renameCollection': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'updateCollection',
        method: 'PATCH',
        path: `/collections/${c}`,
        body: { name: op.name },
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          if (m[as].collections.some((x) => x.name === op.name && x !== collection))
            return expectProblem(label, r, 409, 'collection_name_taken');
          check(r.status === 200, `${label}: expected 200, got ${r.status} ${r.text}`);
          newTimestamp(m, label, r.json.updated_at);
          collection.name = op.name;
          collection.updated_at = r.json.updated_at;
          checkCollection(label, r.json, collection);
        },
      };
    }
    case 'deleteCollection': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'deleteCollection',
        method: 'DELETE',
        path: `/collections/${c}`,
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          check(r.status === 204, `${label}: expected 204, got ${r.status} ${r.text}`);
          const account = m[as];
          account.collections = account.collections.filter((x) => x !== collection);
          account.deletedCollections.push(c);
          for (const object of collection.objects) account.deletedObjects.push({ c, o: object.id });
        },
      };
    }
    case 'getCollection': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'getCollection',
        method: 'GET',
        path: `/collections/${c}`,
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          check(r.status === 200, `${label}: expected 200, got ${r.status}`);
          checkCollection(label, r.json, collection);
        },
      };
    }
    case 'createObject': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'createObject',
        method: 'POST',
        path: `/collections/${c}/objects`,
        body: { content: op.content },
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          check(r.status === 201, `${label}: expected 201, got ${r.status} ${r.text}`);
          newId(m, label, r.json.id);
          newTimestamp(m, label, r.json.created_at);
          const created: MObject = {
            id: r.json.id,
            collection_id: c,
            content: op.content,
            version: 1,
            created_at: r.json.created_at,
            updated_at: r.json.created_at,
          };
          checkObject(label, r.json, created);
          collection.objects.push(created);
        },
      };
    }
    case 'replaceObject':
    case 'patchObject':
    case 'deleteObject':
    case 'getObject': {
      const { c, o } = resolveObject(model, as, op.o);
      const [operationId, method] = {
        replaceObject: ['replaceObject', 'PUT'],
        patchObject: ['updateObject', 'PATCH'],
        deleteObject: ['deleteObject', 'DELETE'],
        getObject: ['getObject', 'GET'],
      }[op.op];
      return {
        ...base,
        operationId: operationId!,
        method: method!,
        path: `/collections/${c}/objects/${o}`,
        body:
          op.op === 'replaceObject'
            ? { content: op.content }
            : op.op === 'patchObject'
              ? { content: op.patch }
              : undefined,
        apply(m, r) {
          const found = locate(m, as, c, o);
          if ('code' in found) return expectProblem(label, r, 404, found.code);
          const { collection, object } = found;
          if (op.op === 'deleteObject') {
            check(r.status === 204, `${label}: expected 204, got ${r.status} ${r.text}`);
            collection.objects = collection.objects.filter((x) => x !== object);
            m[as].deletedObjects.push({ c, o });
            return;
          }
          check(r.status === 200, `${label}: expected 200, got ${r.status} ${r.text}`);
          if (op.op !== 'getObject') {
            newTimestamp(m, label, r.json.updated_at);
            object.content =
              op.op === 'replaceObject' ? op.content : mergePatch(object.content, op.patch);
            object.version += 1;
            object.updated_at = r.json.updated_at;
          }
          checkObject(label, r.json, object);
        },
      };
    }
  }
}

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

async function checkListCollections(
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

async function checkListObjects(
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

async function checkSearch(
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
async function checkInvariants(mock: AnswersMock, model: Model, step: number): Promise<void> {
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

async function sendPrepared(mock: AnswersMock, p: Prepared): Promise<Observed> {
  const response = await send(mock, KEY[p.as], p.method, p.path, p.body);
  conforms(p.operationId, p.label, response);
  return response;
}

/** All orders of a few items (at most 3! = 6). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

async function runStep(mock: AnswersMock, model: Model, op: Op): Promise<Model> {
  switch (op.op) {
    case 'listCollections':
      await checkListCollections(mock, model, op.as, op.limit, op.order);
      return model;
    case 'listObjects':
      await checkListObjects(
        mock,
        model,
        op.as,
        resolveCollection(model, op.as, op.c),
        op.limit,
        op.order,
      );
      return model;
    case 'search':
      await checkSearch(mock, model, op);
      return model;
    case 'parallel': {
      const prepared = op.ops.map((o) => prepare(model, o));
      const responses = await Promise.all(prepared.map((p) => sendPrepared(mock, p)));
      const failures: string[] = [];
      // Serialisable: the responses must be those of the requests run in some order.
      for (const orderOfRun of permutations(prepared.map((_, i) => i))) {
        const candidate = structuredClone(model);
        try {
          for (const i of orderOfRun) prepared[i]!.apply(candidate, responses[i]!);
          return candidate;
        } catch (error) {
          if (!(error instanceof Mismatch)) throw error;
          failures.push(`order ${orderOfRun}: ${error.message}`);
        }
      }
      throw new Mismatch(
        `concurrent requests match no serial order:\n  ${failures.join('\n  ')}\n  responses: ${responses
          .map((r) => `${r.status} ${r.text.slice(0, 160)}`)
          .join(' | ')}`,
      );
    }
    default: {
      const p = prepare(model, op);
      p.apply(model, await sendPrepared(mock, p));
      return model;
    }
  }
}

/** Runs a sequence on a fresh, empty mock, checking the invariants after every step. */
export async function runSequence(ops: Op[]): Promise<void> {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-22T12:00:00.000Z' });
  let model = emptyModel();
  for (const [step, op] of ops.entries()) {
    try {
      model = await runStep(mock, model, op);
      await checkInvariants(mock, model, step);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`step ${step} (${JSON.stringify(op).slice(0, 300)}): ${message}`, {
        cause: error,
      });
    }
  }
}

/** Replays one sequence counterexample (for `test/regressions/`). */
export const replaySequence = runSequence;
