import type { CheckContext } from '../check.ts';
import type { OperationName } from '../target-api/description.ts';
import { runName } from '../target-api/run-name.ts';
import type { BodyValues } from '../target-api/target.ts';

/** One request of the auth matrix, as the target description shapes it. */
export interface AuthRequest {
  operation: OperationName;
  params?: Record<string, unknown>;
  body?: BodyValues;
  /** Whether the request changes data when it is (wrongly) accepted. */
  writes: boolean;
}

/** The name a create that must be refused uses: one per check, so each finds only its own. */
export function refusedName(runId: string, label: string): string {
  return runName(runId, `refused-${label}`);
}

/**
 * Every request the run can aim at the target with other credentials: the described reads, on
 * data the run can identify (a listed collection, the run's own object), and in a destructive run
 * the described writes, aimed at a scratch collection of the run's own. `label` names the
 * collection a refused create would make, so a check never blames itself for another's leftover.
 */
export async function authRequests(
  context: CheckContext,
  options: { writes: boolean; label?: string },
): Promise<AuthRequest[]> {
  const { target, run } = context;
  const requests: AuthRequest[] = [];
  if (target.offers('listCollections'))
    requests.push({ operation: 'listCollections', writes: false });
  let collectionId: string | undefined;
  let objectId: string | undefined;
  if (context.destructive && target.offers('createCollection')) {
    const main = await run.main();
    collectionId = main.id;
    objectId = main.objectIds[0];
  } else if (target.offers('listCollections')) {
    const listed = target.itemsOf((await target.send('listCollections')).json) ?? [];
    collectionId = listed.map((summary) => target.collectionIdOf(summary)).find(Boolean);
  }
  const inCollection = { collection_id: collectionId };
  for (const operation of ['getCollection', 'listObjects'] as const)
    if (collectionId && target.offers(operation))
      requests.push({ operation, params: inCollection, writes: false });
  if (objectId && target.offers('getObject'))
    requests.push({
      operation: 'getObject',
      params: { ...inCollection, object_id: objectId },
      writes: false,
    });
  if (target.offers('search'))
    requests.push({ operation: 'search', body: { query: run.uniqueWord }, writes: false });
  if (!options.writes || !context.destructive || !target.offers('createCollection'))
    return requests;

  const scratch = await run.createCollection('auth', [{ note: 'auth matrix' }]);
  const inScratch = { collection_id: scratch.id };
  const scratchObject = { ...inScratch, object_id: scratch.objectIds[0] };
  const refused = { content: { refused: true } };
  const writes: AuthRequest[] = [
    {
      operation: 'createCollection',
      body: { name: run.name(`refused-${options.label ?? 'auth'}`), metadata: {} },
      writes: true,
    },
    {
      operation: 'updateCollection',
      params: inScratch,
      body: { metadata: { touched: true } },
      writes: true,
    },
    { operation: 'createObject', params: inScratch, body: refused, writes: true },
    { operation: 'replaceObject', params: scratchObject, body: refused, writes: true },
    { operation: 'updateObject', params: scratchObject, body: refused, writes: true },
    { operation: 'deleteObject', params: scratchObject, writes: true },
    // @note Last: when a broken target accepts it, the scratch collection is gone.
    { operation: 'deleteCollection', params: inScratch, writes: true },
  ];
  return [...requests, ...writes.filter((request) => target.offers(request.operation))];
}
