/**
 * The mock under test, seeded with `--objects N` generated objects (or the default seed), in its
 * own process. After seeding it forces a garbage collection (run with --expose-gc) and prints one
 * JSON line of figures, then `listening <url>`.
 */
import { assemble } from '../../src/assemble.ts';
import { startServer } from '../../src/node/server.ts';
import { generateState } from '../../src/seed/generate-state.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const objects = arg('--objects') === undefined ? undefined : Number(arg('--objects'));
/** `--journal-size 0`: the mock without its request journal (the journal's cost, measured). */
const journalSize = arg('--journal-size') === undefined ? undefined : Number(arg('--journal-size'));

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const baseline = process.memoryUsage();
const started = performance.now();
let jsonBytes = 0;
const { mock, state: mockState } = await assemble({
  journalSize,
  initialState: () => {
    const state = generateState({ objects });
    for (const object of state.objects) jsonBytes += Buffer.byteLength(JSON.stringify(object));
    return state;
  },
});
const seedMs = performance.now() - started;
gc?.();
const memory = process.memoryUsage();
const store = mockState.store;
const accountCollections = store.collectionsOf('acme');
const big = accountCollections.find((c) => store.objectCount(c.id) > 0) ?? accountCollections[0]!;
const object = store.objectsOf(big.id)[Math.floor(store.objectCount(big.id) / 2)];
console.log(
  JSON.stringify({
    objects: store.objectTotal,
    seedMs,
    rssBytes: memory.rss - baseline.rss,
    heapBytes: memory.heapUsed - baseline.heapUsed,
    jsonBytes,
    collectionId: big.id,
    objectId: object?.id,
  }),
);
const server = await startServer({ mock, port: 0, quiet: true });
console.log(`listening ${server.url}`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
