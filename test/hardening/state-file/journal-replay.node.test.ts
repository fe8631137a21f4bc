/**
 * The state file's journal, in-process: whatever sequence of writes, deletes, loads and resets a
 * mock goes through, concurrently or not, and however often the file is compacted meanwhile,
 * replaying the file gives back exactly the mock's state.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assemble } from '../../../src/assemble.ts';
import { createMock, type AnswersMock } from '../../../src/index.ts';
import { generateState } from '../../../src/seed/generate-state.ts';
import type { Snapshot } from '../../../src/core/snapshot/snapshot.ts';
import { StateJournal } from '../../../src/node/state-file/journal.ts';
import { readStateFile } from '../../../src/node/state-file/read.ts';
import { send } from '../../support/in-process.ts';

const STATE = generateState({ seed: 7, objects: 1_200 });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A state compared as sets of records: the file keeps no order the API relies on. */
function normal(state: Snapshot) {
  const byId = <T extends { id: string }>(records: T[]) =>
    JSON.stringify([...records].sort((a, b) => (a.id < b.id ? -1 : 1)));
  return {
    accounts: state.accounts,
    api_keys: state.api_keys,
    collections: byId(state.collections),
    objects: byId(state.objects),
    id_sequences: state.id_sequences ?? {},
  };
}

async function replayed(file: string) {
  const contents = await readStateFile(file);
  if (contents.kind !== 'lines') throw new Error(`expected a state file, got ${contents.kind}`);
  return contents.snapshot;
}

type Step =
  | { kind: 'create-collection'; name: number }
  | { kind: 'create-object'; pick: number; word: number }
  | { kind: 'update-object'; pick: number; word: number }
  | { kind: 'delete-object'; pick: number }
  | { kind: 'delete-collection'; pick: number }
  | { kind: 'reset' }
  | { kind: 'load-export' }
  | { kind: 'commit' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('create-collection' as const), name: fc.nat(30) }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('create-object' as const),
      pick: fc.nat(),
      word: fc.nat(9),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('update-object' as const),
      pick: fc.nat(),
      word: fc.nat(9),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('delete-object' as const), pick: fc.nat() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('delete-collection' as const), pick: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'load-export' as const }) },
  { weight: 4, arbitrary: fc.constant({ kind: 'commit' as const }) },
);

/** Ids the mock holds now, read through the API (acme's). */
async function ids(mock: AnswersMock) {
  const state = mock.controls.export();
  return {
    collections: state.collections.filter((c) => c.account_id === 'acme').map((c) => c.id),
    objects: state.objects.filter((o) => o.account_id === 'acme'),
  };
}

/** Starts one step without waiting for it: steps run concurrently, as a server's requests do. */
async function start(mock: AnswersMock, s: Exclude<Step, { kind: 'commit' }>): Promise<unknown> {
  const { collections, objects } = await ids(mock);
  const pick = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  switch (s.kind) {
    case 'create-collection':
      return send(mock, { method: 'POST', path: '/collections', body: { name: `c${s.name}` } });
    case 'create-object': {
      const id = pick(collections, s.pick);
      return (
        id &&
        send(mock, {
          method: 'POST',
          path: `/collections/${id}/objects`,
          body: { content: { w: `word${s.word}` } },
        })
      );
    }
    case 'update-object': {
      const o = pick(objects, s.pick);
      return (
        o &&
        send(mock, {
          method: 'PATCH',
          path: `/collections/${o.collection_id}/objects/${o.id}`,
          body: { content: { w: `new${s.word}` } },
        })
      );
    }
    case 'delete-object': {
      const o = pick(objects, s.pick);
      return (
        o &&
        send(mock, { method: 'DELETE', path: `/collections/${o.collection_id}/objects/${o.id}` })
      );
    }
    case 'delete-collection': {
      const id = pick(collections, s.pick);
      return id && send(mock, { method: 'DELETE', path: `/collections/${id}` });
    }
    case 'reset':
      return mock.controls.reset();
    case 'load-export':
      return mock.controls.load(mock.controls.export());
  }
}

describe('state file journal', () => {
  it('replays to the mock state after any interleaving of writes, loads, resets and compactions', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(step, fc.boolean()), { minLength: 1, maxLength: 40 }),
        async (steps) => {
          const file = join(dir, `state-${run++}.json`);
          const { journal, contents } = await StateJournal.open(file, {
            compaction: { minBytes: 0, ratio: 0 },
          });
          // @note Compacting after every batch puts appends and compactions side by side all the
          // time; a state big enough that writing a compaction takes several turns of the event
          // loop lets writes land in the old file while the new one is being written.
          const { mock, state } = await assemble({
            initialState: STATE,
            now: '2026-01-01T00:00:00.000Z',
          });
          await journal.attach(state, contents);
          try {
            // @note Steps between two commits run concurrently, as a server's requests do; at
            // each commit the file must already hold everything the mock holds, whatever
            // compaction is under way.
            let inFlight: Array<Promise<unknown>> = [];
            const last: [Step, boolean] = [{ kind: 'commit' }, false];
            for (const [s, later] of [...steps, last]) {
              if (s.kind !== 'commit') {
                // Some steps come a turn of the event loop later, while the file is being written.
                if (later) await new Promise((resolve) => setImmediate(resolve));
                inFlight.push(start(mock, s));
                continue;
              }
              await Promise.all(inFlight);
              inFlight = [];
              await journal.commit();
              expect(normal(await replayed(file))).toEqual(normal(mock.controls.export()));
              await journal.settled(); // and once the compaction under way has switched files
              expect(normal(await replayed(file))).toEqual(normal(mock.controls.export()));
            }
          } finally {
            await journal.close();
          }
          expect(normal(await replayed(file))).toEqual(normal(mock.controls.export()));
          // Nothing left beside the files of the runs: no temporary file, no lock.
          expect((await readdir(dir)).filter((name) => !/^state-\d+\.json$/.test(name))).toEqual(
            [],
          );
        },
      ),
      { seed: 20261123, numRuns: 25 },
    );
  }, 120_000);

  it('a file replayed into a new mock gives the same API answers and continues its id sequences', async () => {
    const file = join(dir, 'state.json');
    const first = await StateJournal.open(file);
    const { mock, state } = await assemble({ now: '2026-01-01T00:00:00.000Z' });
    await first.journal.attach(state, first.contents);
    const created = await send(mock, {
      method: 'POST',
      path: '/collections',
      body: { name: 'kept' },
    });
    await first.journal.commit();
    await first.journal.close();

    const second = await StateJournal.open(file);
    expect(second.contents.kind).toBe('lines');
    const { mock: again, state: againState } = await assemble({
      initialState: await replayed(file),
      now: '2026-01-01T00:00:00.000Z',
    });
    await second.journal.attach(againState, second.contents);
    const got = await send(again, { path: `/collections/${created.json.id}` });
    expect(got.json).toEqual(created.json);
    const next = await send(again, {
      method: 'POST',
      path: '/collections',
      body: { name: 'next' },
    });
    // The sequence continued: the id a fresh mock would hand out second is not handed out again.
    expect(next.json.id).not.toBe(created.json.id);
    const fresh = await createMock({ now: '2026-01-01T00:00:00.000Z' });
    await send(fresh, { method: 'POST', path: '/collections', body: { name: 'a' } });
    const secondFresh = await send(fresh, {
      method: 'POST',
      path: '/collections',
      body: { name: 'b' },
    });
    expect(next.json.id).toBe(secondFresh.json.id);
    await second.journal.close();
  });
});
