/** A search for one of the sequence's words, scoped to a collection or not: its hits and their content. */
import type { ObjectPair } from '../../expectations/state.ts';
import { allowed } from '../../expectations/updates.ts';
import { keyClause, OPERATION_CLAUSE, visibleTo } from '../../judges/clause-of.ts';
import { sameJson } from '../../judges/json.ts';
import { allShown, hitShowsContent, nothingHidden } from '../../judges/reads.ts';
import { ok } from '../../judges/status.ts';
import { holdsContent, systemFields } from '../../judges/values.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import * as fc from '../fast-check.ts';
import { stepKind, WORDS, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';

export const search = stepKind({
  kind: 'search',
  weight: 3,
  fields: ({ word, ref, key }) => ({ word, scoped: fc.option(ref, { nil: null }), key }),
  run: (world, step) => world.settled(() => ask(world, step.word, step.scoped, step.key), 'search'),
});

/**
 * A search for `word`, scoped to collection `scoped` (by number) where the description can send
 * a scope. `probe`: one time in three a scoped search asks instead for the word of an object
 * outside the scope; a read-back of a write (`probe: false`) asks for the word it planted.
 */
export async function ask(
  world: World,
  word: number,
  scoped: number | null,
  key: KeyName,
  probe = true,
): Promise<void> {
  const { expected } = world;
  // @note Only what the description can send: a target whose search has no place for a scope
  // ({collection_ids}) is asked unscoped, as its users would ask it.
  const scope =
    scoped === null || !world.target.canScopeSearch() ? undefined : expected.collection(scoped);
  // @note A scope is put to the test by a word that objects outside it hold: one time in three,
  // a scoped search asks for the word of a live object of the same account elsewhere.
  const outside = scope
    ? expected.objects.find((pair) => pair.collection !== scope && visibleTo(pair, key))
    : undefined;
  if (probe && outside && word % WORDS === 1) word = outside.word;
  const query = world.word(word);
  const [target, model] = await world.both('search', key, {
    body: (side) => ({ query, ...(scope ? { collection_ids: [scope[side]] } : {}) }),
  });
  const where = scope ? ` in collection #${expected.numberOf(scope)}` : '';
  const record = world.record(`search "${query}"${where} (key ${key})`, model, target);
  // @note The spec states no answer to a search scoped to a collection the caller cannot see
  // (deleted, or another account's): "absent", as its description counts it, or a 2xx that finds
  // nothing there are both right, on either side. Another account's collection is judged as not
  // yours, a deleted one as gone; a refused key is still a refusal.
  const why = scope ? world.why(scope, key) : 'gone';
  const hidden = scope !== undefined && !visibleTo(scope, key);
  const either = (side: 'target' | 'model', status: number) =>
    ok(status) || world.absent(side, why, status);
  if (!(hidden && either('model', model.status) && either('target', target.status)))
    world.answered(keyClause(key, false, OPERATION_CLAUSE.search), model, target, record, why);
  if (!ok(target.status)) return;
  const hits = world.target.hitsOf(target.json) ?? [];
  const ids = new Set(hits.map((hit) => world.target.hitObjectIdOf(hit)));
  const name = (pair: ObjectPair) => `#${expected.numberOf(pair)}`;
  // What the search may find of the run's objects: those with the word, not deleted, the
  // caller's, in the scope; the model's answer says the same of its own objects.
  const findable = (pair: ObjectPair) =>
    !hidden &&
    pair.word === word % WORDS &&
    visibleTo(pair, key) &&
    (scope === undefined || pair.collection === scope);
  const found = expected.objects.filter((pair) => ids.has(pair.target));
  world.judged(
    nothingHidden(
      'the search',
      expected.objects.map((pair) => ({
        name: name(pair),
        state: pair,
        shown: ids.has(pair.target),
      })),
      (state) => findable(state as ObjectPair),
      key,
      OPERATION_CLAUSE.search,
      'outside the scope, or without the word',
      // @note Only an object that holds the word (or held it: a stale index) could be found
      // wrongly: with none outside what the search may find, it could not have failed.
      (state) =>
        (state as ObjectPair).word === word % WORDS ||
        (state as ObjectPair).earlier.some((content) => JSON.stringify(content).includes(query)),
    ),
    record,
  );
  // @note Pages differ in size from one target to another: every object is expected only
  // when there are few enough for the smallest first page a target is likely to have, or up
  // to the limit its description states (`search.limit`).
  const wanted = expected.objects.filter(findable).map(name);
  const limit = world.target.description.search.limit;
  const least =
    limit === undefined ? (wanted.length <= 5 ? wanted.length : 0) : Math.min(limit, wanted.length);
  world.judged(
    allShown(
      OPERATION_CLAUSE.search,
      'the search',
      wanted,
      found.map(name),
      least,
      limit === undefined ? '' : ` (its description says a search answers up to ${limit})`,
    ),
    record,
  );
  hitContents(world, hits, record);
}
/**
 * Fails when a hit shows content its object no longer holds (as it was before a replace or an
 * update: a stale index), or, where the description says where a hit holds content
 * (`search.hitContent`), anything but what the object holds.
 */
function hitContents(world: World, hits: unknown[], record: StepRecord): void {
  const { expected } = world;
  const byId = new Map(expected.objects.map((pair) => [pair.target, pair]));
  const declared = world.target.description.updates.content;
  for (const hit of hits) {
    const pair = byId.get(world.target.hitObjectIdOf(hit) ?? '');
    if (!pair) continue;
    // @note A hit that holds the whole object (`search.hitObject`) is judged as the object:
    // its content where `object.content` says, and every system field.
    const whole = world.target.description.search.hitObject !== undefined;
    const object = world.target.hitObjectOf(hit);
    const at = whole ? world.target.contentAt(object) : world.target.hitContentOf(hit);
    if (whole) world.judged(systemFields(world.target.missingSystemFields(object)), record);
    // @note Else a hit is looked at where its object id is: the object around that id
    // (`/object` of `/object/id`) and the hit itself.
    const holds = (content: unknown) =>
      at
        ? sameJson(at.content, content)
        : holdsContent(object, content) || (!whole && holdsContent(hit, content));
    const now = allowed(pair.content, declared);
    world.judged(
      hitShowsContent(
        expected.numberOf(pair),
        now.some(holds),
        pair.earlier.some(holds),
        at,
        now[0],
      ),
      record,
    );
  }
}
