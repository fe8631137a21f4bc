/** The steps of `explore` that read after writes: a search, a walk of the list. */
import type { Target } from '../target-api/target.ts';
import { Divergence, holdsContent, ok, short, type StepRecord } from './comparison.ts';
import { matchingStyle, sameJson, sameMetadata } from './updates.ts';
import { WORDS, type KeyName } from './step-kind.ts';
import type { Explorer } from './explorer.ts';

/**
 * A search for `word`, scoped to collection `scoped` (by number) where the description can send
 * a scope. `probe`: one time in three a scoped search asks instead for the word of an object
 * outside the scope; a read-back of a write (`probe: false`) asks for the word it planted.
 */
export async function search(
  world: Explorer,
  word: number,
  scoped: number | null,
  key: KeyName,
  probe = true,
): Promise<void> {
  // @note Only what the description can send: a target whose search has no place for a scope
  // ({collection_ids}) is asked unscoped, as its users would ask it.
  const scope =
    scoped === null || !world.target.canScopeSearch() ? undefined : world.collection(scoped);
  // @note A scope is put to the test by a word that objects outside it hold: one time in three,
  // a scoped search asks for the word of a live object of the same account elsewhere.
  const account = (k: KeyName) => (k === 'otherAccount' ? 'other' : 'own');
  const outside = scope
    ? world.objects.find(
        (pair) =>
          pair.collection !== scope &&
          !pair.deleted &&
          !pair.collection.deleted &&
          account(pair.key) === account(key),
      )
    : undefined;
  if (probe && outside && word % WORDS === 1) word = outside.word;
  const query = world.word(word);
  const [target, model] = await world.both('search', key, {
    body: (side) => ({ query, ...(scope ? { collection_ids: [scope[side]] } : {}) }),
  });
  const where = scope ? ` in collection #${world.collections.indexOf(scope) + 1}` : '';
  const record = world.record(`search "${query}"${where} (key ${key})`, model, target);
  // @note The spec states no answer to a search scoped to a collection the caller cannot see
  // (deleted, or another account's): "absent", as its description counts it, or a 2xx that finds
  // nothing there are both right, on either side. Another account's collection is judged as not
  // yours, a deleted one as gone; a refused key is still a refusal.
  const why = scope ? world.why(scope, key) : 'gone';
  const hidden = scope !== undefined && (scope.deleted || account(scope.key) !== account(key));
  const either = (side: 'target' | 'model', status: number) =>
    ok(status) || world.absent(side, why, status);
  if (!(hidden && either('model', model.status) && either('target', target.status)))
    world.agree('SEARCH-1', model, target, record, why);
  if (!ok(target.status)) return;
  const hits = world.target.hitsOf(target.json) ?? [];
  const ids = new Set(hits.map((hit) => world.target.hitObjectIdOf(hit)));
  const found = world.objects
    .filter((pair) => ids.has(pair.target))
    .map((pair) => world.objects.indexOf(pair) + 1);
  // What the search may find of the run's objects: those with the word, not deleted, the
  // caller's, in the scope; the model's answer says the same of its own objects.
  const expected = hidden
    ? []
    : world.objects
        .filter(
          (pair) =>
            pair.word === word % WORDS &&
            !pair.deleted &&
            !pair.collection.deleted &&
            account(pair.key) === account(key) &&
            (scope === undefined || pair.collection === scope),
        )
        .map((pair) => world.objects.indexOf(pair) + 1);
  const strays = found.filter((n) => !expected.includes(n));
  world.coverage.count(world.coverage.clauses, 'SEARCH-1');
  if (strays.length > 0) {
    // The clause the first stray breaks: isolation, a deletion, or what a search is for.
    const pair = world.objects[strays[0]! - 1]!;
    const clause =
      account(pair.key) !== account(key)
        ? 'ISO-1'
        : pair.collection.deleted
          ? 'DEL-2'
          : pair.deleted
            ? 'DEL-3'
            : 'SEARCH-1';
    throw new Divergence(
      clause,
      `the search found objects #${strays.join(', #')}, which it must not (deleted, another account's, outside the scope, or without the word)`,
      record,
    );
  }
  // @note Pages differ in size from one target to another: every object is expected only
  // when there are few enough for the smallest first page a target is likely to have, or up
  // to the limit its description states (`search.limit`).
  const limit = world.target.description.search.limit;
  const least =
    limit === undefined
      ? expected.length <= 5
        ? expected.length
        : 0
      : Math.min(limit, expected.length);
  if (found.length < least)
    throw new Divergence(
      'SEARCH-1',
      `the search found objects ${JSON.stringify(found)} of the run's ${JSON.stringify(expected)} with the word${limit === undefined ? '' : ` (its description says a search answers up to ${limit})`}`,
      record,
    );
  hitContents(world, hits, record);
}

/**
 * Fails when a hit shows content its object no longer holds (as it was before a replace or an
 * update: a stale index), or, where the description says where a hit holds content
 * (`search.hitContent`), anything but what the object holds.
 */
function hitContents(world: Explorer, hits: unknown[], record: StepRecord): void {
  const byId = new Map(world.objects.map((pair) => [pair.target, pair]));
  const declared = world.target.description.updates.content;
  for (const hit of hits) {
    const pair = byId.get(world.target.hitObjectIdOf(hit) ?? '');
    if (!pair) continue;
    const n = world.objects.indexOf(pair) + 1;
    const at = world.target.hitContentOf(hit);
    // @note Without `search.hitContent`, a hit is looked at where its object id is: the
    // object around that id (`/object` of `/object/id`) and the hit itself.
    const object = world.target.hitObjectOf(hit);
    const holds = (content: unknown) =>
      at
        ? sameJson(at.content, content)
        : holdsContent(object, content, world.target) || holdsContent(hit, content);
    world.coverage.count(world.coverage.clauses, 'SEARCH-1');
    if (matchingStyle(pair.content, declared, undefined, (expected) => holds(expected))) continue;
    if (at)
      throw new Divergence(
        'SEARCH-1',
        `the hit of object #${n} shows ${short(at.content)}, not the content it holds (${short(pair.content[declared ?? 'replace'])})`,
        record,
      );
    if (pair.earlier.some(holds))
      throw new Divergence(
        'SEARCH-1',
        `the hit of object #${n} shows content the object held before it was replaced or updated, not what it holds now (${short(pair.content[declared ?? 'replace'])})`,
        record,
      );
  }
}

export async function walk(world: Explorer, pageSize: number, key: KeyName): Promise<void> {
  if (key === 'inactive') {
    const [target, model] = await world.both('listCollections', key);
    const record = world.record(`list collections (key inactive)`, model, target);
    return world.agree('ERR-401-2', model, target, record);
  }
  world.coverage.count(world.coverage.operations, 'listCollections');
  const [targetItems, modelItems] = await Promise.all([
    world.target.walk({ key: world.keys[key], pageSize }),
    world.model.walk({ key: world.modelKeys[key], pageSize }),
  ]);
  world.requests += 2;
  const ours = (side: Target, items: unknown[], which: 'target' | 'model') => {
    const index = new Map(world.collections.map((pair, i) => [pair[which], i + 1]));
    return items
      .map((item) => index.get(side.collectionIdOf(item) ?? ''))
      .filter((n) => n !== undefined);
  };
  const record: StepRecord = {
    request: `walk the list of collections, pages of ${pageSize} (key ${key})`,
    model: `collections ${short(ours(world.model, modelItems.items, 'model'))}`,
    target: `collections ${short(ours(world.target, targetItems.items, 'target'))}${targetItems.partial ? ` (${targetItems.partial})` : ''}`,
  };
  world.records.push(record);
  if (targetItems.partial) return;
  // @note The spec states creation order, not its direction (GAP-SORT-DIRECTION): the
  // target's order is the model's, or the model's reversed.
  // Collections the target gives one creation date may come in either order (ties).
  const expected = ours(world.model, modelItems.items, 'model');
  const seen = ours(world.target, targetItems.items, 'target');
  // @note A deleted collection still listed breaks the delete (DEL-1), not the list's order.
  const deletedListed = seen.filter((n) => world.collections[n - 1]?.deleted);
  if (deletedListed.length > 0)
    world.same('DEL-1', 'deleted collections still listed', [], deletedListed, record);
  const created = new Map<number, number | undefined>();
  const index = new Map(world.collections.map((pair, i) => [pair.target, i + 1]));
  for (const item of targetItems.items) {
    const n = index.get(world.target.collectionIdOf(item) ?? '');
    if (n !== undefined) created.set(n, world.target.createdAtOf(item));
  }
  // @note A collection missing or shown twice breaks the paging (COLL-LIST-2), not the order.
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  world.same(
    'COLL-LIST-2',
    "the run's collections, each once",
    sorted(expected),
    sorted(seen),
    record,
  );
  const reversed = [...expected].reverse();
  const fits = [expected, reversed].find((order) => inOrder(seen, order, created));
  world.same(
    'COLL-LIST-3',
    "the run's collections, in order",
    fits ? seen : expected,
    seen,
    record,
  );
  summaries(world, targetItems.items, modelItems.items, record);
}

/**
 * Each summary of the run's collections in a walk (§2, §4: it includes an object count and
 * metadata) against the model's summary of the same collection and the metadata its writes left.
 */
function summaries(
  world: Explorer,
  targetItems: unknown[],
  modelItems: unknown[],
  record: StepRecord,
): void {
  const modelById = new Map(
    modelItems.map((item) => [world.model.collectionIdOf(item), item] as const),
  );
  for (const item of targetItems) {
    const id = world.target.collectionIdOf(item);
    const pair = world.collections.find((p) => p.target === id);
    const twin = pair && modelById.get(pair.model);
    if (!pair || twin === undefined) continue;
    const n = world.collections.indexOf(pair) + 1;
    world.same(
      'COLL-2',
      `the object count in the list's summary of collection #${n}`,
      world.model.objectCountOf(twin),
      world.target.objectCountOf(item),
      record,
    );
    sameMetadata(
      world,
      pair,
      world.target.metadataOf(item),
      record,
      `the metadata in the list's summary of collection #${n}`,
    );
  }
}

/**
 * Whether `seen` lists the same collections as `order`, in its order, except among collections
 * with one creation date (`created`): the spec orders by creation date, so a tie is in any order.
 */
export function inOrder(
  seen: number[],
  order: number[],
  created: ReadonlyMap<number, number | undefined>,
): boolean {
  if (JSON.stringify([...seen].sort()) !== JSON.stringify([...order].sort())) return false;
  const rank = new Map(order.map((n, i) => [n, i]));
  for (let i = 0; i < seen.length; i++)
    for (let j = i + 1; j < seen.length; j++) {
      const [a, b] = [seen[i]!, seen[j]!];
      const tie = created.get(a) !== undefined && created.get(a) === created.get(b);
      if (!tie && rank.get(a)! > rank.get(b)!) return false;
    }
  return true;
}
