/**
 * A write the target refused at a limit its description does not state (limits.ts) is read back
 * before the run calls it a limit: a refusal stores nothing, so a read that shows what the write
 * sent is a refusal half applied, a divergence. Each write is read back by what it would change:
 * an update by its resource's get, an object's create by its collection's count, a collection's
 * create by the list of the key's account.
 */
import { sameJson, short } from '../judges/json.ts';
import { ok } from '../judges/status.ts';
import { holdsContent, refusedStoredNothing } from '../judges/values.ts';
import type { Verdict } from '../judges/verdict.ts';
import type { OperationName } from '../target-api/description.ts';
import type { BodyValues } from '../target-api/target.ts';
import type { Expected } from '../expectations/state.ts';
import type { Target } from '../target-api/target.ts';

/** Whether metadata shown holds every key the refused write sent, as it sent it. */
function holdsSent(shown: unknown, sent: Record<string, unknown>): boolean {
  if (shown === null || typeof shown !== 'object' || Array.isArray(shown)) return false;
  const entries = Object.entries(sent);
  return (
    entries.length > 0 &&
    entries.every(([key, value]) => sameJson((shown as Record<string, unknown>)[key], value))
  );
}

/** What a read-back is given: the write refused, and a way to read with the write's key. */
interface Refused {
  target: Target;
  expected: Expected;
  params: Record<string, unknown>;
  sent: BodyValues;
  key: string | undefined;
  read: (reading: OperationName) => Promise<unknown>;
}

type ReadBack = (refused: Refused) => Promise<Verdict | undefined>;

/** An update or replace of an object's content, read back by the object's get. */
const contentReadBack: ReadBack = async ({ target, params, sent, read }) => {
  if (sent.content === undefined) return undefined;
  const got = await read('getObject');
  if (got === undefined) return undefined;
  const object = target.objectIn(got);
  return refusedStoredNothing(
    'content',
    `a write of the content of object ${String(params.object_id)}`,
    holdsContent(object, sent.content, target.contentAt(object))
      ? `its get shows the content sent (${short(object)})`
      : undefined,
  );
};

/**
 * How each operation's refused write is read back: `null` for one that sends nothing a limit
 * could refuse (a read, a delete). Every operation of openapi.yaml is here: a new one does not
 * compile until it says how.
 */
const READ_BACKS: { readonly [O in OperationName]: ReadBack | null } = {
  listCollections: null,
  getCollection: null,
  listObjects: null,
  getObject: null,
  search: null,
  deleteCollection: null,
  deleteObject: null,
  updateCollection: async ({ target, params, sent, read }) => {
    if (sent.metadata === undefined) return undefined;
    const got = await read('getCollection');
    if (got === undefined) return undefined;
    const shown = target.metadataOf(target.collectionIn(got));
    return refusedStoredNothing(
      'metadata',
      `an update of the metadata of collection ${String(params.collection_id)}`,
      holdsSent(shown, sent.metadata)
        ? `its get shows the metadata sent (${short(shown)})`
        : undefined,
    );
  },
  replaceObject: contentReadBack,
  updateObject: contentReadBack,
  createObject: async ({ target, expected, params, read }) => {
    const pair = expected.collections.find((c) => c.target === params.collection_id);
    if (!pair) return undefined;
    const got = await read('getCollection');
    if (got === undefined) return undefined;
    const count = target.objectCountOf(target.collectionIn(got));
    const held = expected.objects.filter((o) => o.collection === pair && !o.deleted);
    return refusedStoredNothing(
      'count',
      `a create of an object in collection ${String(params.collection_id)}`,
      count !== undefined && count > held.length
        ? `the collection counts ${count} objects, ${held.length} of them created and not deleted`
        : undefined,
    );
  },
  createCollection: async ({ target, sent, key }) => {
    if (sent.name === undefined || !target.offers('listCollections')) return undefined;
    const listed = await target.walkCollections({ key });
    return refusedStoredNothing(
      'list',
      `a create of collection ${sent.name}`,
      listed.some((item) => target.nameOf(item) === sent.name)
        ? 'the list shows a collection of that name'
        : undefined,
    );
  },
};

/**
 * The verdict of the read-back of a write the target refused (`sent` to `params` with the key
 * `key`), or undefined where nothing can be read back (no such read offered, or the read refused).
 */
export async function refusalReadBack(
  target: Target,
  expected: Expected,
  operation: OperationName,
  params: Record<string, unknown>,
  sent: BodyValues,
  key: string | undefined,
): Promise<Verdict | undefined> {
  const read = async (reading: OperationName) => {
    if (!target.offers(reading)) return undefined;
    const got = await target.send(reading, { key, params });
    return ok(got.status) ? got.json : undefined;
  };
  return (
    (await READ_BACKS[operation]?.({ target, expected, params, sent, key, read })) ?? undefined
  );
}
