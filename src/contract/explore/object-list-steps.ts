/**
 * The step of `explore` that lists a collection's objects (our document's `listObjects`, where a
 * description offers it): the objects a collection holds are those created in it and not
 * deleted (OBJ-1), none deleted comes back (DEL-3), and its count says as many (COLL-2).
 */
import { CheckFailure } from '../failure.ts';
import { Divergence, keyClause, ok, short, type StepRecord } from './comparison.ts';
import type { Explorer } from './explorer.ts';
import type { KeyName } from './step-kind.ts';

export async function listObjects(
  world: Explorer,
  ref: number,
  key: KeyName,
  pageSize: number,
): Promise<void> {
  const pair = world.collection(ref);
  if (!pair) return;
  const n = world.collections.indexOf(pair) + 1;
  const why = world.why(pair, key);
  const size = Math.min(pageSize, world.target.description.limits.pageSize ?? pageSize);
  // @note What the model refuses (gone, not yours, a refused key) is judged by its status alone.
  if (pair.deleted || why === 'notYours' || key === 'inactive') {
    const [target, model] = await world.both('listObjects', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const record = world.record(`list the objects of collection #${n} (key ${key})`, model, target);
    world.agree(
      keyClause(key, false, pair.deleted ? 'DEL-1' : 'ISO-1'),
      model,
      target,
      record,
      why,
    );
    if (ok(model.status) || !ok(target.status)) return;
  }
  world.coverage.count(world.coverage.operations, 'listObjects');
  const request = `list the objects of collection #${n}, pages of ${size} (key ${key})`;
  const record: StepRecord = { request, model: '', target: '' };
  world.records.push(record);
  const walk = (side: 'target' | 'model') =>
    world[side].walk({
      operation: 'listObjects',
      params: { collection_id: pair[side] },
      key: (side === 'target' ? world.keys : world.modelKeys)[key],
      pageSize: size,
    });
  const [target, model] = await Promise.all([
    walk('target').catch((error: unknown) => {
      if (!(error instanceof CheckFailure) || error.clause !== undefined) throw error;
      record.target = error.message;
      throw new Divergence('OBJ-1', error.message, record);
    }),
    walk('model'),
  ]);
  const numbers = (side: 'target' | 'model', items: unknown[]) => {
    const index = new Map(world.objects.map((object, i) => [object[side], i + 1]));
    return items
      .map((item) => index.get(world[side].objectIdOf(item) ?? '') ?? 0)
      .sort((a, b) => a - b);
  };
  const expected = numbers('model', model.items);
  const seen = numbers('target', target.items);
  record.model = `objects ${short(expected.map((i) => (i ? `#${i}` : 'not the run’s')))}`;
  record.target = `objects ${short(seen.map((i) => (i ? `#${i}` : 'not the run’s')))}${target.partial ? ` (${target.partial})` : ''}`;
  if (target.partial) return;
  const deleted = seen.filter((i) => i > 0 && world.objects[i - 1]!.deleted);
  if (deleted.length > 0) world.same('DEL-3', 'deleted objects still listed', [], deleted, record);
  world.same('OBJ-1', `the objects of collection #${n}`, expected, seen, record);
}
