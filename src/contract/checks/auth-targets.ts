import type { CheckContext } from '../check.ts';
import { itemsOf } from '../data.ts';

/** A request the auth checks send with different credentials. */
export interface AuthTarget {
  operationId: string;
  method: string;
  path: string;
  body?: unknown;
  /** Whether the path is stated by the spec (otherwise it is one of our decisions). */
  stated: boolean;
  /** Whether the request changes data when it is (wrongly) accepted. */
  writes: boolean;
}

/**
 * The requests of the auth matrix: every operation the run may call. Reads always; writes only
 * with --destructive, aimed at a collection this run created. Spec-only runs keep the operations
 * whose path the spec states (list and get collection).
 */
export async function authTargets(
  context: CheckContext,
  options: { writes: boolean },
): Promise<AuthTarget[]> {
  const listed = await context.http.request('GET', '/collections');
  const first = itemsOf(listed.json)?.[0];
  const targets: AuthTarget[] = [
    {
      operationId: 'listCollections',
      method: 'GET',
      path: '/collections',
      stated: true,
      writes: false,
    },
  ];
  if (first?.id) {
    targets.push({
      operationId: 'getCollection',
      method: 'GET',
      path: `/collections/${encodeURIComponent(first.id)}`,
      stated: true,
      writes: false,
    });
  }
  if (context.specOnly) return targets;

  const main = await context.data.main(context);
  const collection = `/collections/${main.collection.id}`;
  const object = `${collection}/objects/${main.objects[0].id}`;
  targets.push(
    {
      operationId: 'listObjects',
      method: 'GET',
      path: `${collection}/objects`,
      stated: false,
      writes: false,
    },
    { operationId: 'getObject', method: 'GET', path: object, stated: false, writes: false },
    {
      operationId: 'searchObjects',
      method: 'POST',
      path: '/search',
      body: { query: main.word },
      stated: false,
      writes: false,
    },
  );
  if (options.writes && context.destructive) {
    const scratch = await context.data.createCollection('auth', [{ note: 'auth matrix' }]);
    const scratchPath = `/collections/${scratch.collection.id}`;
    const scratchObject = `${scratchPath}/objects/${scratch.objects[0].id}`;
    targets.push(
      {
        operationId: 'createCollection',
        method: 'POST',
        path: '/collections',
        body: { name: `answers-contract-${context.data.runId}-refused` },
        stated: false,
        writes: true,
      },
      {
        operationId: 'updateCollection',
        method: 'PATCH',
        path: scratchPath,
        body: { metadata: { touched: true } },
        stated: false,
        writes: true,
      },
      {
        operationId: 'createObject',
        method: 'POST',
        path: `${scratchPath}/objects`,
        body: { content: { refused: true } },
        stated: false,
        writes: true,
      },
      {
        operationId: 'replaceObject',
        method: 'PUT',
        path: scratchObject,
        body: { content: { refused: true } },
        stated: false,
        writes: true,
      },
      {
        operationId: 'updateObject',
        method: 'PATCH',
        path: scratchObject,
        body: { content: { refused: true } },
        stated: false,
        writes: true,
      },
      {
        operationId: 'deleteObject',
        method: 'DELETE',
        path: scratchObject,
        stated: false,
        writes: true,
      },
      // @note Last: when a broken target accepts it, the scratch collection is gone.
      {
        operationId: 'deleteCollection',
        method: 'DELETE',
        path: scratchPath,
        stated: false,
        writes: true,
      },
    );
  }
  return targets;
}
