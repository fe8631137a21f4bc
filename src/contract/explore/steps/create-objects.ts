/** Many objects in one collection at once: more than a page, or a batch, of them. */
import { ok } from '../../judges/status.ts';
import * as fc from '../fast-check.ts';
import { stepKind, WORDS } from '../step-kind.ts';
import type { World } from '../world.ts';
import { oneObject } from './create-object.ts';
import { ask as search } from './search.ts';

export const createObjects = stepKind({
  kind: 'createObjects',
  weight: 1,
  needs: ['createObject'],
  fields: ({ ref, word }) => ({ ref, count: fc.integer({ min: 2, max: 30 }), word }),
  run: (world, step) => create(world, step.ref, step.count, step.word),
});

async function create(world: World, ref: number, count: number, word: number): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const key = pair.key;
  const request = `create ${count} objects at once in collection #${world.expected.numberOf(pair)} (key ${key}, word ${word % WORDS})`;
  const batch = { statuses: [] as Array<[number, number]> };
  const tally = (side: 0 | 1) => {
    const counts = new Map<number, number>();
    for (const statuses of batch.statuses)
      counts.set(statuses[side], (counts.get(statuses[side]) ?? 0) + 1);
    return [...counts].map(([status, n]) => `${status} ×${n}`).join(', ');
  };
  // @note Sent at once: the end state must be that of some serial order (every object there).
  try {
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        oneObject(
          world,
          pair,
          key,
          // @note The last object of a batch holds the next word: a word few objects hold, at
          // the end of a collection that may now hold more than a page or a batch, to search for.
          i === count - 1 ? word + 1 : word,
          { text: `batch ${i} ${world.word(i === count - 1 ? word + 1 : word)}` },
          request,
          batch,
        ),
      ),
    );
  } finally {
    world.records.push({ request, model: tally(0), target: tally(1) });
    for (const [, status] of batch.statuses) world.coverage.count(world.coverage.statuses, status);
  }
  // Read back through a search scoped to the collection, for the word only the batch's last
  // object holds: the newest of a collection that may now hold more than a page or a batch.
  if (!pair.deleted && world.target.offers('search') && batch.statuses.some(([m]) => ok(m)))
    await world.settled(() => search(world, word + 1, ref, key, false), 'search');
}
