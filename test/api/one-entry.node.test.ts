/**
 * A mock has one entry, `mock.handle(request, options)`: the API, and the control API only when
 * `options.control` is set; where the request was routed beside the response; never a rejection
 * (a bug is a 500, its error in `internal`). A fault wraps the API behind that entry and leaves
 * the control API the mock's own.
 */
import { describe, expect, it } from 'vitest';
import { assembleMock } from '../../src/core/create-mock.ts';
import type { MockRequest } from '../../src/core/http.ts';
import { assemble } from '../../src/assemble.ts';
import { withFault } from '../../src/faults/index.ts';
import { emptyState } from '../../src/index.ts';
import { mockRequest } from '../support/in-process.ts';

const reset: MockRequest = {
  method: 'POST',
  path: '/__mock/reset',
  query: new URLSearchParams(),
  headers: new Headers(),
};

describe("a mock's one entry", () => {
  it('answers the control API only when asked to serve it', async () => {
    const { mock } = await assemble({ initialState: emptyState() });
    expect((await mock.handle(reset)).response.status).toBe(404);
    expect((await mock.handle(reset, { control: true })).response.status).toBe(204);
  });

  it('says which operation and account a request was routed to', async () => {
    const { mock } = await assemble({ initialState: emptyState() });
    const handled = await mock.handle(mockRequest({ path: '/collections' }));
    expect(handled.response.status).toBe(200);
    expect(handled.operation?.operationId).toBe('listCollections');
    expect(handled.accountId).toBe('acme');
  });

  it('turns an error behind it into a 500 with the error kept for the log', async () => {
    const bug = new Error('a bug behind the entry');
    const { mock } = await assembleMock(emptyState(), {}, () => () => {
      throw bug;
    });
    const handled = await mock.handle(mockRequest({ path: '/collections' }));
    expect(handled.response.status).toBe(500);
    expect(handled.response.body).not.toContain('a bug behind the entry');
    expect(handled.internal).toBe(bug);
  });

  it('lets a fault change the API and leaves the control API as it is', async () => {
    const { mock } = await assemble({ initialState: emptyState() }, withFault('counts-wrong'));
    const created = await mock.handle(
      mockRequest({ method: 'POST', path: '/collections', body: { name: 'One object' } }),
    );
    const id = (JSON.parse(created.response.body!) as { id: string }).id;
    await mock.handle(
      mockRequest({ method: 'POST', path: `/collections/${id}/objects`, body: { content: {} } }),
    );
    const got = await mock.handle(mockRequest({ path: `/collections/${id}` }));
    expect(JSON.parse(got.response.body!)).toMatchObject({ object_count: 2 });
    expect((await mock.handle(reset, { control: true })).response.status).toBe(204);
    expect(mock.db.collections.count()).toBe(0);
  });
});
