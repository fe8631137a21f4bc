/**
 * The state file round trip at 1,000,000 objects (a child of state-file.ts): a seeded mock is
 * written to a state file, the file is read back into a new mock, and every record is compared
 * by a hash taken in creation order. Prints one JSON line of figures.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { MockState } from '../../src/core/store/mock-state.ts';
import { assemble } from '../../src/assemble.ts';
import { StateJournal } from '../../src/node/state-file/journal.ts';
import { generateState } from '../../src/seed/generate-state.ts';

const file = process.argv[2]!;

function digest(state: MockState): { hash: string; objects: number } {
  const hash = createHash('sha256');
  const { store } = state;
  let objects = 0;
  const sorted = [...store.allCollections()].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const collection of sorted) {
    hash.update(JSON.stringify(collection));
    for (const object of store.objectsOf(collection.id)) {
      hash.update(JSON.stringify(object));
      objects += 1;
    }
  }
  return { hash: hash.digest('hex'), objects };
}

/** Seeds a mock, writes it to the file and lets it go: only one mock is in memory at a time. */
async function seedAndWrite() {
  const { state } = await assemble({ initialState: () => generateState({ objects: 1_000_000 }) });
  const digested = digest(state);
  const opened = await StateJournal.open(file);
  const began = performance.now();
  await opened.journal.attach(state, opened.contents);
  const writeMs = performance.now() - began;
  await opened.journal.close();
  return { before: digested, writeMs };
}

const { before, writeMs } = await seedAndWrite();
let began = performance.now();
const again = await StateJournal.open(file);
const readMs = performance.now() - began;
if (again.contents.kind !== 'lines') throw new Error(`read back as ${again.contents.kind}`);
const snapshot = again.contents.snapshot;
began = performance.now();
const { state: second } = await assemble({ initialState: () => snapshot });
const loadMs = performance.now() - began;
await again.journal.close();
const after = digest(second);
console.log(
  JSON.stringify({
    writeMs,
    fileBytes: (await stat(file)).size,
    readMs,
    loadMs,
    objects: after.objects,
    same: before.hash === after.hash && before.objects === after.objects,
  }),
);
