/**
 * A last line of the state file cut short (the mock stopped while writing it) is left out, as
 * its change was never acknowledged, and said at start: a delete cut short brings its record
 * back, which is not done silently. The mock starts all the same (cut-line.ts says why).
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateJournal } from '../../../src/node/state-file/journal.ts';
import { API, FULL } from '../security/servers.ts';
import { mocksOnFilesClosedAfterEach } from './mock-on-file.ts';

const { serve, journals } = mocksOnFilesClosedAfterEach();
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-cut-line-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const headers = { authorization: `Bearer ${FULL}`, 'content-type': 'application/json' };

/** A file holding a collection `doomed` with one object; their ids. */
async function saved() {
  const { server, journal, create } = await serve(file);
  const collection = ((await (await create('doomed')).json()) as { id: string }).id;
  const made = await fetch(`${server.url}${API}/collections/${collection}/objects`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: { text: 'kept?' } }),
  });
  const object = ((await made.json()) as { id: string }).id;
  await journal.close();
  return { collection, object };
}

/** Opens the file again as a start does: what it says, and what it continues from. */
async function restart() {
  const notices: string[] = [];
  const { journal, contents } = await StateJournal.open(file, {
    onNotice: (line) => notices.push(line),
  });
  journals.push(journal);
  if (contents.kind !== 'lines') throw new Error(`expected a state file, got ${contents.kind}`);
  return { notices, state: contents.snapshot };
}

const leftOut = (bytes: number) =>
  `the last line of the state file ${file} (${bytes} bytes) was cut short when the mock stopped while writing it; its change was never acknowledged, so it is left out`;

describe('a last line cut short', () => {
  it.each([
    ['whole but for its newline', (id: string) => `{"collection_deleted":"${id}"}`],
    ['cut after its id', (id: string) => `{"collection_deleted":"${id}"`],
  ])(
    'that deleted a collection (%s) is said at start, naming the collection kept with its objects',
    async (_, line) => {
      const { collection, object } = await saved();
      await appendFile(file, line(collection));
      const { notices, state } = await restart();
      expect(notices).toEqual([
        `${leftOut(line(collection).length)}: it deleted collection ${collection}, which is therefore kept with its objects; delete it again if it should be gone.`,
      ]);
      expect(state.collections.map((c) => c.id)).toContain(collection);
      expect(state.objects.map((o) => o.id)).toContain(object);
    },
  );

  it('that deleted a collection, cut inside its id, names the collection it can be', async () => {
    const { collection } = await saved();
    const line = `{"collection_deleted":"${collection.slice(0, -3)}`;
    await appendFile(file, line);
    const { notices } = await restart();
    expect(notices).toEqual([
      `${leftOut(line.length)}: it deleted collection ${collection}, which is therefore kept with its objects; delete it again if it should be gone.`,
    ]);
  });

  it('that deleted an object is said at start, naming the object kept', async () => {
    const { object } = await saved();
    const line = `{"object_deleted":"${object}"}`;
    await appendFile(file, line);
    const { notices, state } = await restart();
    expect(notices).toEqual([
      `${leftOut(line.length)}: it deleted object ${object}, which is therefore kept; delete it again if it should be gone.`,
    ]);
    expect(state.objects.map((o) => o.id)).toContain(object);
  });

  it('of any other change is said at start too', async () => {
    await saved();
    const line = '{"collection":{"id":"col_half';
    await appendFile(file, line);
    const { notices } = await restart();
    expect(notices).toEqual([`${leftOut(line.length)}.`]);
  });

  it('is not said when the file ends with a whole line', async () => {
    await saved();
    const { notices } = await restart();
    expect(notices).toEqual([]);
  });
});
