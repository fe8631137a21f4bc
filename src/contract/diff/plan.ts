/**
 * What `diff` reads, decided from the snapshot alone (so both sides are asked the same): the
 * collections of each account and their objects, in the deployment's ids and the mock's, and the
 * words a search looks for, sampled from the snapshot's content where few objects hold them (so
 * every hit fits one page of either side). The state is read as JSON: the contract suite knows
 * nothing of the mock's core, only the fields a state file holds.
 */
import { fnv1a } from '../fnv1a.ts';

/** The fields of a state file (`answers-contract snapshot --out`) `diff` reads. */
export interface StateFile {
  api_keys: Array<{ key: string; account_id: string }>;
  collections: Array<{ id: string; account_id: string; name: string; created_at?: string }>;
  objects: Array<{ id: string; collection_id: string; content: unknown }>;
}

/** The map `snapshot` writes beside the state: the mock's ids to the deployment's. */
export interface IdMap {
  format: 'answers-snapshot-map/1';
  baseUrl: string;
  takenAt: string;
  collections: Record<string, string>;
  objects: Record<string, string>;
}

/** One id on both sides. */
export interface Pair {
  deployment: string;
  mock: string;
}

export interface Plan {
  /** The full key's collections, with their objects. */
  collections: Array<Pair & { objects: Pair[] }>;
  /** The other account's collections (read with the full key, they must not be shown). */
  others: Pair[];
  /** The other account's objects, by the deployment's ids: a search by the full key must not find them. */
  otherObjects: string[];
  /** Every id of the snapshot on the deployment (collections and objects): what a list is compared on. */
  known: ReadonlySet<string>;
  /** How many words were asked for (`--searches`), and the most objects a word sampled is held by. */
  searchesAsked: number;
  mostHolders: number;
  /** Words to search for, each with the collection of the first object that holds it (for a scoped search). */
  words: Array<{ word: string; holders: number; scope: Pair }>;
}

/** A word as the mock's search reads one: a run of Unicode letters and digits, lower case. */
const WORD = /[\p{L}\p{N}]+/gu;

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/**
 * The plan of a diff of `state` (mapped back by `map`), the keys' accounts being the state's
 * accounts of `fullKey` and `otherKey` (the mock's dev keys): at most `searches` words, each
 * held by 1 to `mostHolders` objects, sampled by `seed`; at most `maxCollections` collections.
 */
export function planOf(
  state: StateFile,
  map: IdMap,
  keys: { full: string; otherAccount: string },
  bounds: { searches: number; mostHolders: number; seed: number; maxCollections: number },
): Plan {
  const accountOf = (key: string) => state.api_keys.find((each) => each.key === key)?.account_id;
  const full = accountOf(keys.full);
  const other = accountOf(keys.otherAccount);
  const pair = (mock: string, deployment: string | undefined): Pair | undefined =>
    deployment === undefined ? undefined : { mock, deployment };
  const objectsOf = new Map<string, StateFile['objects']>();
  for (const object of state.objects) {
    const list = objectsOf.get(object.collection_id) ?? [];
    list.push(object);
    objectsOf.set(object.collection_id, list);
  }
  const collections: Plan['collections'] = [];
  const others: Pair[] = [];
  const otherIds = new Set<string>();
  for (const collection of state.collections) {
    const both = pair(collection.id, map.collections[collection.id]);
    if (!both) continue;
    if (collection.account_id === other) {
      others.push(both);
      otherIds.add(collection.id);
    }
    if (collection.account_id !== full || collections.length >= bounds.maxCollections) continue;
    const objects = (objectsOf.get(collection.id) ?? [])
      .map((object) => pair(object.id, map.objects[object.id]))
      .filter((each): each is Pair => each !== undefined);
    collections.push({ ...both, objects });
  }
  // @note Counted over the full key's objects only: a search by that key finds no other's.
  const holders = new Map<string, { count: number; scope: Pair }>();
  for (const collection of collections) {
    for (const object of objectsOf.get(collection.mock) ?? []) {
      const words = new Set(
        stringsOf(object.content).flatMap((text) => text.toLowerCase().match(WORD) ?? []),
      );
      for (const word of words) {
        const known = holders.get(word);
        if (known) known.count += 1;
        else holders.set(word, { count: 1, scope: collection });
      }
    }
  }
  const words = [...holders]
    .filter(([word, { count }]) => count <= bounds.mostHolders && /\p{L}/u.test(word))
    .sort(
      ([a], [b]) => fnv1a(`${bounds.seed}:${a}`) - fnv1a(`${bounds.seed}:${b}`) || (a < b ? -1 : 1),
    )
    .slice(0, bounds.searches)
    .map(([word, { count, scope }]) => ({
      word,
      holders: count,
      scope: { deployment: scope.deployment, mock: scope.mock },
    }));
  const otherObjects = state.objects
    .filter((object) => otherIds.has(object.collection_id))
    .map((object) => map.objects[object.id])
    .filter((id): id is string => id !== undefined);
  const known = new Set([...Object.values(map.collections), ...Object.values(map.objects)]);
  return {
    collections,
    others,
    otherObjects,
    known,
    searchesAsked: bounds.searches,
    mostHolders: bounds.mostHolders,
    words,
  };
}
