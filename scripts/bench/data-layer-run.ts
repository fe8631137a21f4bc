/**
 * One size of the data-layer bench, in its own process (run with --expose-gc): seeds `--objects N`
 * spread over 1,000 collections, times writes through the in-process API at that size, and prints
 * one JSON line of figures. With `--one-collection`, all objects sit in one collection; with
 * `--load-only`, only seeding and a reset are timed (the load path, for profiling and A/B runs).
 */
import { createMock, type Snapshot } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { call } from './in-process.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const OBJECTS = Number(arg('--objects') ?? 1_000);
const ONE = process.argv.includes('--one-collection');
const COLLECTIONS = ONE ? 1 : 1_000;
const LOAD_ONLY = process.argv.includes('--load-only');
const SAMPLES = LOAD_ONLY ? 0 : Number(arg('--samples') ?? 200);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const id = (prefix: string, n: number) => `${prefix}_${n.toString(36).padStart(20, '0')}`;
const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'heath'];

function snapshot(): Snapshot {
  const state = emptyState();
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  for (let c = 0; c < COLLECTIONS; c++) {
    const at = new Date(start + c).toISOString();
    state.collections.push({
      id: id('col', c),
      account_id: 'acme',
      name: `collection ${c}`,
      metadata: {},
      created_at: at,
      updated_at: at,
    });
  }
  for (let o = 0; o < OBJECTS; o++) {
    const at = new Date(start + COLLECTIONS + o).toISOString();
    state.objects.push({
      id: id('obj', o),
      account_id: 'acme',
      collection_id: id('col', o % COLLECTIONS),
      content: { title: `object ${o}`, text: `${WORDS[o % 8]} ${WORDS[(o >> 3) % 8]} note` },
      created_at: at,
      updated_at: at,
      version: 1,
    });
  }
  return state;
}

/** p50 in ms of `samples` runs of `task(i)`. */
async function p50(samples: number, task: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const began = performance.now();
    await task(i);
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const state = snapshot();
const jsonBytes = state.objects.reduce((sum, o) => sum + JSON.stringify(o).length, 0);
gc();
const baseline = process.memoryUsage().heapUsed;
// @note CPU time beside wall time: on a machine shared with other work it moves less.
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
let cpu = process.cpuUsage();
let began = performance.now();
const mock = await createMock({ initialState: () => state, now: '2026-06-01T00:00:00.000Z' });
const seedMs = performance.now() - began;
const seedCpuMs = cpuMs(cpu);
gc();
const heapPerObject = (process.memoryUsage().heapUsed - baseline) / OBJECTS;

// Spread over the store: a random collection or object for each sample (fixed sequence).
const pick = (i: number, n: number) => (i * 7_919 + 13) % n;
// @note Uncounted writes of each kind first, so that every size times optimised code in its steady
// state: seeding a large store warms some of the same code up, a small one hardly, and the first
// writes of a cold process are several times slower than the rest. One write into each of the
// 1,000 collections: at 1,000,000 objects, the first few hundred deletes after a load took 0.07 to
// 0.13 ms and the ones after 2,000 others 0.035 to 0.046 ms, as at 1,000 objects (each
// collection's list and maps are in the processor's cache once touched, and out of it after a
// few idle seconds). docs/performance.md gives the cold figures beside the steady ones.
const WARM_UP = LOAD_ONLY ? 0 : 1_000;
for (let i = 0; i < WARM_UP; i++) {
  const collectionId = id('col', pick(i + 1, COLLECTIONS));
  const created = await call(mock, 'POST', `/collections/${collectionId}/objects`, {
    content: { text: 'warm' },
  });
  await call(mock, 'PATCH', `/collections/${collectionId}/objects/${created.id}`, {
    content: { text: 'warmer' },
  });
  await call(mock, 'DELETE', `/collections/${collectionId}/objects/${created.id}`);
}
const createP50 = await p50(SAMPLES, (i) =>
  call(mock, 'POST', `/collections/${id('col', pick(i, COLLECTIONS))}/objects`, {
    content: { text: 'new' },
  }),
);
const updateP50 = await p50(SAMPLES, (i) => {
  const o = pick(i, OBJECTS);
  return call(mock, 'PATCH', `/collections/${id('col', o % COLLECTIONS)}/objects/${id('obj', o)}`, {
    content: { text: 'changed' },
  });
});
const deleteP50 = await p50(SAMPLES, (i) => {
  const o = pick(i + SAMPLES, OBJECTS);
  return call(mock, 'DELETE', `/collections/${id('col', o % COLLECTIONS)}/objects/${id('obj', o)}`);
});
// A collection of 1,000 objects, created through mock.db, then deleted through the API.
const cascades: number[] = [];
for (let round = 0; round < (ONE || LOAD_ONLY ? 0 : 5); round++) {
  const c = await call(mock, 'POST', '/collections', { name: `cascade ${round}` });
  const at = mock.controls.now();
  for (let o = 0; o < 1_000; o++) {
    await mock.db.objects.create({
      id: id('obj', 50_000_000 + round * 1_000 + o),
      account_id: 'acme',
      collection_id: c.id,
      content: { text: 'cascade' },
      created_at: at,
      updated_at: at,
      version: 1,
    });
  }
  began = performance.now();
  await call(mock, 'DELETE', `/collections/${c.id}`);
  cascades.push(performance.now() - began);
}
cascades.sort((a, b) => a - b);
cpu = process.cpuUsage();
began = performance.now();
await mock.controls.reset();
const resetMs = performance.now() - began;
const resetCpuMs = cpuMs(cpu);

console.log(
  JSON.stringify({
    objects: OBJECTS,
    collections: COLLECTIONS,
    seedMs,
    seedCpuMs,
    heapPerObject,
    jsonPerObject: jsonBytes / OBJECTS,
    createP50,
    updateP50,
    deleteP50,
    cascadeP50: cascades[Math.floor(cascades.length / 2)],
    resetMs,
    resetCpuMs,
  }),
);
