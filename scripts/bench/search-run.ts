/**
 * One size of the search bench, in its own process (run with --expose-gc): seeds `--objects N`
 * of one account spread over 1,000 collections (as the data-layer bench does) with realistic
 * content, times searches through the in-process API, and prints one JSON line of figures.
 * @note The content comes from a pool of faker-made contents (faker takes about 90 us an object,
 * too slow for a million), each object with a word of its own (`object <n>`), so the vocabulary
 * grows with the store as real data's does.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Faker, base, en } from '@faker-js/faker';
import { createMock, type Snapshot } from '../../src/index.ts';
import { MAX_QUERY_WORDS, words } from '../../src/core/search/search-index.ts';
import { content } from '../../src/seed/generate-state.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { call } from './in-process.ts';
import { KEY } from './settings.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const OBJECTS = Number(arg('--objects') ?? 1_000);
const SAMPLES = Number(arg('--samples') ?? 100);
const COLLECTIONS = 1_000;
const POOL = 4_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const id = (prefix: string, n: number) => `${prefix}_${n.toString(36).padStart(20, '0')}`;

const faker = new Faker({ locale: [en, base], seed: 20_260_514 });
const pool = Array.from({ length: POOL }, () => content(faker, 'pool'));

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
    const c = o % COLLECTIONS;
    state.objects.push({
      id: id('obj', o),
      account_id: 'acme',
      collection_id: id('col', c),
      content: { ...pool[(o * 7_919) % POOL]!, source: `collection-${c}`, ref: `object ${o}` },
      created_at: at,
      updated_at: at,
      version: 1,
    });
  }
  return state;
}

/** The most common words of the pool that fit, joined, in a query of 512 characters. */
function commonWords(count: number): string {
  const frequency = new Map<string, number>();
  for (const item of pool) {
    const { source: _, ...kept } = item;
    for (const word of new Set(words(JSON.stringify(Object.values(kept))))) {
      frequency.set(word, (frequency.get(word) ?? 0) + 1);
    }
  }
  // @note Greedy by frequency per character: the query limit is 512 characters, so 100 words
  // average at most 4.1 characters with their spaces.
  const chosen = [...frequency]
    .filter(([word]) => word.length <= 6)
    .sort((a, b) => b[1] / (b[0].length + 1) - a[1] / (a[0].length + 1))
    .slice(0, count)
    .map(([word]) => word);
  const query = chosen.join(' ');
  if (chosen.length < count || query.length > 512) throw new Error('no query of common words');
  return query;
}

const state = snapshot();
const jsonBytes = state.objects.reduce((sum, o) => sum + JSON.stringify(o).length, 0);
gc();
const baseline = process.memoryUsage();
let began = performance.now();
const mock = await createMock({ initialState: () => state, now: '2026-06-01T00:00:00.000Z' });
const seedMs = performance.now() - began;
gc();
// @note V8 frees the memory of dead ArrayBuffers (a grown typed array's old one) a little after
// the collection that finds them: wait for it, or they count as the index's.
await new Promise((resolve) => setTimeout(resolve, 200));
gc();
const memory = process.memoryUsage();

interface Timing {
  p50: number;
  max: number;
  /** Which sample was the slowest (0: the first of its kind). */
  slowest: number;
  total: number;
}

const HUNDRED = commonWords(100);
const CAPPED = commonWords(MAX_QUERY_WORDS);
const pick = (i: number, n: number) => (i * 7_919 + 13) % n;
const some = (i: number, n: number) =>
  Array.from({ length: n }, (_, k) => id('col', pick(i * n + k, COLLECTIONS)));
const pages = new Map<number, string>();
const queries: Record<string, [number, (i: number) => unknown]> = {
  // The scale bench's query: two tags, each in about a fifth of the objects.
  twoTags: [SAMPLES, () => ({ query: 'billing security' })],
  commonWord: [SAMPLES, () => ({ query: 'the' })],
  rareWord: [SAMPLES, (i) => ({ query: `${pick(i, OBJECTS)}` })],
  threeWords: [SAMPLES, () => ({ query: 'ergonomic chair pizza' })],
  tenCollections: [SAMPLES, (i) => ({ query: 'billing', collection_ids: some(i, 10) })],
  // The third page of a common word, through the cursor of the second.
  thirdPage: [SAMPLES, (i) => ({ query: 'with', cursor: pages.get(i) })],
  // The costliest query the mock accepts: as many of the commonest words as it allows.
  capCommonWords: [Math.max(10, SAMPLES / 5), () => ({ query: CAPPED })],
  // More distinct words than that: refused with 400 before any work.
  hundredCommonWords: [Math.max(10, SAMPLES / 5), () => ({ query: HUNDRED })],
};

/** One search; a query over the mock's word limit must be refused with 400 `validation_failed`. */
async function search(name: string, request: unknown): Promise<{ total: number }> {
  if (name !== 'hundredCommonWords') return call(mock, 'POST', '/search', request);
  const { response } = await mock.handle({
    method: 'POST',
    path: '/api/answers/v1/search',
    query: new URLSearchParams(),
    headers: new Headers({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }),
    body: new TextEncoder().encode(JSON.stringify(request)),
  });
  const body = JSON.parse(response.body as string) as { code?: string };
  if (response.status !== 400 || body.code !== 'validation_failed') {
    throw new Error(`100 common words: ${response.status} ${response.body as string}`);
  }
  return { total: 0 };
}

// @note Back to the event loop between searches, through its timers, so the delay monitor's
// timer runs between two searches and sees each one apart.
const breathe = () => new Promise((resolve) => setTimeout(resolve, 2));
const delay = monitorEventLoopDelay({ resolution: 1 });
const figures: Record<string, Timing> = {};
delay.enable();
for (const [name, [samples, body]] of Object.entries(queries)) {
  if (name === 'thirdPage') {
    for (let i = 0; i < samples; i++) {
      const second = await call(mock, 'POST', '/search', { query: 'with' });
      pages.set(
        i,
        (await call(mock, 'POST', '/search', { query: 'with', cursor: second.next_cursor }))
          .next_cursor,
      );
      await breathe();
    }
  }
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < samples; i++) {
    const request = body(i);
    const started = performance.now();
    const found = await search(name, request);
    times.push(performance.now() - started);
    total = found.total;
    await breathe();
  }
  const slowest = times.indexOf(Math.max(...times));
  times.sort((a, b) => a - b);
  figures[name] = { p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, slowest, total };
}
// @note The monitor records a delay when its timer next runs: let it run before reading.
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
await settle();
// @note The searches' longest delay apart from the cascades': each is a target of its own.
const searchStallMs = delay.max / 1e6;

// A collection of 1,000 objects with the same kind of content, deleted through the API.
const cascades: number[] = [];
let cascadeStallMs = 0;
for (let round = 0; round < 3; round++) {
  const c = await call(mock, 'POST', '/collections', { name: `cascade ${round}` });
  for (let o = 0; o < 1_000; o++) {
    await mock.db.objects.create({
      id: id('obj', 50_000_000 + round * 1_000 + o),
      account_id: 'acme',
      collection_id: c.id,
      content: pool[o % POOL]!,
      created_at: mock.controls.now(),
      updated_at: mock.controls.now(),
      version: 1,
    });
  }
  // @note Only the delete counts: creating its objects above is the bench's own work. A fresh
  // monitor per delete, not `delay.reset()`: after a reset, Node's monitor does not record the
  // interval it is in, so a delete that blocked the loop right after one was never seen (a
  // 100 ms busy loop read as 1.1 ms).
  const deleting = monitorEventLoopDelay({ resolution: 1 });
  deleting.enable();
  await settle();
  began = performance.now();
  await call(mock, 'DELETE', `/collections/${c.id}`);
  cascades.push(performance.now() - began);
  await settle();
  deleting.disable();
  cascadeStallMs = Math.max(cascadeStallMs, deleting.max / 1e6);
}
cascades.sort((a, b) => a - b);
delay.disable();

console.log(
  JSON.stringify({
    objects: OBJECTS,
    seedMs,
    heapPerObject: (memory.heapUsed - baseline.heapUsed) / OBJECTS,
    // @note `external` includes the ArrayBuffers: typed arrays of an index live there.
    externalPerObject: (memory.external - baseline.external) / OBJECTS,
    jsonPerObject: jsonBytes / OBJECTS,
    searches: figures,
    stallMs: searchStallMs,
    cascadeStallMs,
    cascadeP50: cascades[1],
  }),
);
