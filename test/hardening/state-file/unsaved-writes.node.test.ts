/**
 * A server whose state file can no longer be written (disk full, the file's disk gone) answers
 * no write as done: the write that failed gets a 507, and so does every later one, while reads
 * go on.
 */
import { describe, expect, it } from 'vitest';
import type { Persistence } from '../../../src/node/server.ts';
import { API, FULL, serversClosedAfterEach } from '../security/servers.ts';

const { start } = serversClosedAfterEach();
const headers = { authorization: `Bearer ${FULL}`, 'content-type': 'application/json' };

/** A store that keeps the first `ok` commits, then fails as a full disk does. */
function failingAfter(ok: number): Persistence {
  let failure: Error | undefined;
  let commits = 0;
  return {
    get failure() {
      return failure;
    },
    commit() {
      if (failure) return Promise.reject(failure);
      if (++commits <= ok) return Promise.resolve();
      failure = new Error('ENOSPC: no space left on device, write');
      return Promise.reject(failure);
    },
  };
}

describe('writes that cannot be saved', () => {
  it('answers 507 for the write that failed and every later one, and keeps serving reads', async () => {
    const server = await start({ persistence: failingAfter(1) });
    const create = (name: string) =>
      fetch(`${server.url}${API}/collections`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name }),
      });
    expect((await create('saved')).status).toBe(201);

    const failed = await create('not saved');
    expect(failed.status).toBe(507);
    expect(failed.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await failed.json()) as { code: string; detail: string };
    expect(problem.code).toBe('insufficient_storage');
    expect(problem.detail).toContain('ENOSPC');

    const later = await create('refused before it is made');
    expect(later.status).toBe(507);
    const list = await fetch(`${server.url}${API}/collections?limit=100`, { headers });
    expect(list.status).toBe(200);
    const names = ((await list.json()) as { data: Array<{ name: string }> }).data.map(
      (c) => c.name,
    );
    expect(names).toContain('saved');
    // Refused before it reached the mock: nothing of it is held, even in memory.
    expect(names).not.toContain('refused before it is made');
  });
});
