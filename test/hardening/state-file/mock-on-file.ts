/**
 * A mock served over HTTP that keeps its changes in a state file through the journal, as the CLI
 * wires it, in process: so a test can reach the journal's seams (a disk that fills up, short
 * lock times) and still send real requests. Journals and servers are closed after each test.
 */
import { afterEach } from 'vitest';
import { assemble } from '../../../src/assemble.ts';
import { StateJournal, type JournalOptions } from '../../../src/node/state-file/journal.ts';
import { readStateFile } from '../../../src/node/state-file/read.ts';
import { API, FULL, serversClosedAfterEach } from '../security/servers.ts';

const headers = { authorization: `Bearer ${FULL}`, 'content-type': 'application/json' };

export function mocksOnFilesClosedAfterEach() {
  const { start } = serversClosedAfterEach();
  const journals: StateJournal[] = [];
  afterEach(async () => {
    await Promise.all(journals.splice(0).map((journal) => journal.close()));
  });

  /** A mock of the default data on `file`, journaled, listening on a free port. */
  async function serve(file: string, options: JournalOptions = {}) {
    const { journal, contents } = await StateJournal.open(file, options);
    journals.push(journal);
    const { mock, state } = await assemble();
    await journal.attach(state, contents);
    const server = await start({ mock, persistence: journal });
    const create = (name: string) =>
      fetch(`${server.url}${API}/collections`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name }),
      });
    const names = async () => {
      const list = await fetch(`${server.url}${API}/collections?limit=100`, { headers });
      return ((await list.json()) as { data: Array<{ name: string }> }).data.map((c) => c.name);
    };
    return { journal, server, mock, create, names };
  }
  return { serve, journals };
}

/** The names of acme's collections (the key the requests use) the file holds. */
export async function savedNames(file: string) {
  const saved = await readStateFile(file);
  if (saved.kind !== 'lines') throw new Error(`expected a state file, got ${saved.kind}`);
  return saved.snapshot.collections.filter((c) => c.account_id === 'acme').map((c) => c.name);
}
