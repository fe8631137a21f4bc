/**
 * The model the random sequences are checked against: what each account holds, every id and the
 * latest timestamp handed out, and the checks that compare the mock's answers with it. A check
 * that fails throws {@link Mismatch}.
 */
import { validateResponse } from '../../../src/openapi/response-validation.ts';
import { jsonEqual, type Json, type Observed } from '../fuzz-support.ts';
import type { Account, Ref } from './sequence-operations.ts';

export const KEY: Record<Account, string> = {
  acme: 'answers_test_full_acme',
  globex: 'answers_test_full_globex',
};
export const OTHER: Record<Account, Account> = { acme: 'globex', globex: 'acme' };
export const ACCOUNTS: Account[] = ['acme', 'globex'];
const UNKNOWN_COLLECTION = 'col_00000000000000000000';
const UNKNOWN_OBJECT = 'obj_00000000000000000000';

export interface MObject {
  id: string;
  collection_id: string;
  content: Json;
  version: number;
  created_at: string;
  updated_at: string;
}
export interface MCollection {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  objects: MObject[];
}
export interface MAccount {
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

export function emptyModel(): Model {
  const account = (): MAccount => ({ collections: [], deletedCollections: [], deletedObjects: [] });
  return { acme: account(), globex: account(), clock: '', ids: [] };
}

export const liveObjects = (account: MAccount) => account.collections.flatMap((c) => c.objects);

/** RFC 7396, written independently of the mock's; keys are defined, so `__proto__` stays a key. */
export function mergePatch(target: Json, patch: Json): Json {
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
export function wordsOf(value: Json, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const word of value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) out.add(word);
  } else if (Array.isArray(value)) value.forEach((v) => wordsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => wordsOf(v, out));
  return out;
}

export class Mismatch extends Error {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Mismatch(message);
}

export function conforms(operationId: string, label: string, response: Observed): void {
  const found = validateResponse(operationId, {
    status: response.status,
    headers: response.headers,
    body: response.text,
  });
  check(found.length === 0, `${label} -> ${response.status} breaks openapi.yaml: ${found}`);
}

export function expectProblem(
  label: string,
  response: Observed,
  status: number,
  code: string,
): void {
  check(
    response.status === status && response.json?.code === code,
    `${label}: expected ${status} ${code}, got ${response.status} ${response.text.slice(0, 200)}`,
  );
}

export function newTimestamp(model: Model, label: string, at: string): void {
  check(at > model.clock, `${label}: timestamp ${at} is not after ${model.clock}`);
  model.clock = at;
}

export function newId(model: Model, label: string, id: string): void {
  check(!model.ids.includes(id), `${label}: id ${id} was handed out before`);
  model.ids.push(id);
}

export function resolveCollection(model: Model, as: Account, r: Ref): string {
  const own = model[as];
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  if (r === 'unknown') return UNKNOWN_COLLECTION;
  if ('live' in r) return pick(own.collections, r.live)?.id ?? UNKNOWN_COLLECTION;
  if ('deleted' in r) return pick(own.deletedCollections, r.deleted) ?? UNKNOWN_COLLECTION;
  return pick(model[OTHER[as]].collections, r.foreign)?.id ?? UNKNOWN_COLLECTION;
}

export function resolveObject(model: Model, as: Account, r: Ref): { c: string; o: string } {
  const own = model[as];
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  const fallback = { c: own.collections[0]?.id ?? UNKNOWN_COLLECTION, o: UNKNOWN_OBJECT };
  if (r === 'unknown') return fallback;
  if ('deleted' in r) return pick(own.deletedObjects, r.deleted) ?? fallback;
  const list = 'live' in r ? liveObjects(own) : liveObjects(model[OTHER[as]]);
  const found = pick(list, 'live' in r ? r.live : r.foreign);
  return found ? { c: found.collection_id, o: found.id } : fallback;
}

export function findCollection(model: Model, as: Account, id: string): MCollection | undefined {
  return model[as].collections.find((c) => c.id === id);
}

/** The object at c/o as the account sees it, or the 404 code the mock must answer. */
export function locate(
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

export function checkObject(label: string, got: any, want: MObject): void {
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

export function checkCollection(label: string, got: any, want: MCollection): void {
  check(
    got?.id === want.id &&
      got.name === want.name &&
      got.object_count === want.objects.length &&
      got.created_at === want.created_at &&
      got.updated_at === want.updated_at,
    `${label}: collection ${JSON.stringify(got)} is not ${want.name} with ${want.objects.length} objects`,
  );
}
