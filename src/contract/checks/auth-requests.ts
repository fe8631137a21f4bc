import type { CheckContext } from '../check.ts';
import { writes, type OperationName } from '../target-api/description.ts';
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

/** What the run can aim a request at: data it can identify, and a scratch collection of its own. */
interface Aims {
  /** A collection it can name (its own in a destructive run, else the first listed). */
  collection?: string | undefined;
  /** An object of that collection (a destructive run's own). */
  object?: string | undefined;
  /**
   * In a destructive run, with writes: a collection and an object to aim writes at, and the name
   * a refused create would give its collection.
   */
  scratch?: { collection: string; object: string; refusedName: string } | undefined;
  /** The run's own word, to search for. */
  word: string;
}

type Shape = Pick<AuthRequest, 'params' | 'body'>;
const refused = { content: { refused: true } };
const inCollection = (id: string | undefined): Shape | undefined =>
  id ? { params: { collection_id: id } } : undefined;
const onObject = (collection?: string, object?: string, body?: BodyValues): Shape | undefined =>
  collection && object
    ? { params: { collection_id: collection, object_id: object }, ...(body ? { body } : {}) }
    : undefined;

/**
 * How the auth matrix aims each operation, reads first and a collection's delete last (when a
 * broken target accepts it, the scratch collection is gone): undefined where there is nothing to
 * aim it at. A new operation of openapi.yaml does not compile until it says how it is sent.
 */
const AIMED: { readonly [O in OperationName]: (aims: Aims) => Shape | undefined } = {
  listCollections: () => ({}),
  getCollection: (aims) => inCollection(aims.collection),
  listObjects: (aims) => inCollection(aims.collection),
  getObject: (aims) => onObject(aims.collection, aims.object),
  search: (aims) => ({ body: { query: aims.word } }),
  createCollection: (aims) =>
    aims.scratch && { body: { name: aims.scratch.refusedName, metadata: {} } },
  updateCollection: (aims) =>
    aims.scratch && {
      params: { collection_id: aims.scratch.collection },
      body: { metadata: { touched: true } },
    },
  createObject: (aims) =>
    aims.scratch && { ...inCollection(aims.scratch.collection), body: refused },
  replaceObject: (aims) => onObject(aims.scratch?.collection, aims.scratch?.object, refused),
  updateObject: (aims) => onObject(aims.scratch?.collection, aims.scratch?.object, refused),
  deleteObject: (aims) => onObject(aims.scratch?.collection, aims.scratch?.object),
  deleteCollection: (aims) => inCollection(aims.scratch?.collection),
};

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
  const aims: Aims = { word: run.uniqueWord };
  if (context.destructive && target.offers('createCollection')) {
    const main = await run.main();
    aims.collection = main.id;
    aims.object = main.objectIds[0];
  } else if (target.offers('listCollections')) {
    const listed = target.itemsOf((await target.send('listCollections')).json) ?? [];
    aims.collection = listed.map((summary) => target.collectionIdOf(summary)).find(Boolean);
  }
  if (options.writes && context.destructive && target.offers('createCollection')) {
    const scratch = await run.createCollection('auth', [{ note: 'auth matrix' }]);
    const refusedName = run.name(`refused-${options.label ?? 'auth'}`);
    aims.scratch = { collection: scratch.id, object: scratch.objectIds[0]!, refusedName };
  }
  return (Object.keys(AIMED) as OperationName[]).flatMap((operation) => {
    const shape = target.offers(operation) ? AIMED[operation](aims) : undefined;
    return shape ? [{ operation, ...shape, writes: writes(operation) }] : [];
  });
}
