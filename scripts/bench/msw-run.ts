/**
 * The mock in-process, as a test author runs it (msw `setupServer`), in its own process (run with
 * --expose-gc): `reset()` with the default data, a GET through the kit against a plain msw
 * handler returning the same JSON, and the heap over rounds of create / delete / reset. Prints
 * one JSON line of figures.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { assemble } from '../../src/assemble.ts';
import { createHandlers } from '../../src/index.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const KEY = 'answers_test_full_acme';
const headers = { authorization: `Bearer ${KEY}` };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const { mock, state } = await assemble({ now: '2026-01-01T00:00:00.000Z' });
const [first] = mock.db.collections.findMany((q) => q.where({ account_id: 'acme' }));
const body = await (
  await mock.handle({
    method: 'GET',
    path: `/api/answers/v1/collections/${first!.id}`,
    query: new URLSearchParams(),
    headers: new Headers(headers),
  })
).response.body!;

// @note A test suite resets before every test, hundreds of times: the figure is the steady
// state, after 10 uncounted resets that let V8 compile the load path (30 counted from the first
// read 2.9 ms in one run and 6.4 ms in another).
const resets: number[] = [];
for (let i = 0; i < 110; i++) {
  const began = performance.now();
  await mock.controls.reset();
  if (i >= 10) resets.push(performance.now() - began);
}

// The same GET, answered by the kit and by a plain handler with the body precomputed, interleaved.
const kit = setupServer(...createHandlers(mock, { baseUrl: 'http://kit.test' }));
kit.use(http.get('http://plain.test/collection', () => HttpResponse.text(body)));
kit.listen({ onUnhandledRequest: 'error' });
const timed = async (url: string, rounds: number) => {
  const began = performance.now();
  for (let i = 0; i < rounds; i++) await (await fetch(url, { headers })).text();
  return (performance.now() - began) / rounds;
};
const kitUrl = `http://kit.test/api/answers/v1/collections/${first!.id}`;
await timed(kitUrl, 200);
await timed('http://plain.test/collection', 200);
const kitMs: number[] = [];
const plainMs: number[] = [];
for (let round = 0; round < 10; round++) {
  kitMs.push(await timed(kitUrl, 200));
  plainMs.push(await timed('http://plain.test/collection', 200));
}
kit.close();

// Heap after each round of creating 1,000 objects of new words, deleting their collection, reset.
const heaps: number[] = [];
for (let round = 0; round < 10; round++) {
  const created = await mock.db.collections.create({
    id: `col_round${String(round).padStart(15, '0')}`,
    account_id: 'acme',
    name: `round ${round}`,
    metadata: {},
    created_at: mock.controls.now(),
    updated_at: mock.controls.now(),
  });
  for (let o = 0; o < 1_000; o++) {
    await mock.db.objects.create({
      id: `obj_r${String(round).padStart(4, '0')}${String(o).padStart(15, '0')}`,
      account_id: 'acme',
      collection_id: created.id,
      content: { text: `word${round}x${o} another${round}y${o}` },
      created_at: mock.controls.now(),
      updated_at: mock.controls.now(),
      version: 1,
    });
  }
  await mock.db.collections.delete(created);
  await mock.controls.reset();
  gc();
  heaps.push(process.memoryUsage().heapUsed);
}

console.log(
  JSON.stringify({
    resetP50: median(resets),
    kitGetMs: median(kitMs),
    plainGetMs: median(plainMs),
    heapFirst: heaps[0],
    heapLast: heaps.at(-1),
    vocabulary: state.store.vocabulary.size,
  }),
);
