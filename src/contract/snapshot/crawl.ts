/**
 * A read-only crawl of a deployment through its target description: each account's collections
 * (every page, as the description pages), their metadata and their objects with their content and
 * system times, within bounds. Nothing but the two lists is sent (`listCollections`,
 * `listObjects`): a snapshot of staging must never change staging.
 */
import { CheckFailure } from '../failure.ts';
import { instantOf } from '../target-api/dates.ts';
import { resolvePointer } from '../target-api/pointer.ts';
import type { Target } from '../target-api/target.ts';

/** An object as the deployment holds it, in the terms a mock's state takes. */
interface CrawledObject {
  /** Its id on the deployment (the map beside the snapshot names it). */
  sourceId: string;
  content: unknown;
  /** RFC 3339, where the deployment shows when it was made and last changed. */
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  version?: number | undefined;
}

export interface CrawledCollection {
  sourceId: string;
  name: string;
  metadata: Record<string, unknown>;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  objects: CrawledObject[];
  /** The collection held more objects than the bounds let the crawl take. */
  cut?: true;
}

/** How much a crawl takes at most. */
export interface CrawlBounds {
  maxCollections: number;
  /** In all, over every account. */
  maxObjects: number;
  /** In one collection. */
  maxObjectsPerCollection: number;
}

/** What a crawl says of the way it read the deployment: the report's notes. */
export interface CrawlNotes {
  /** Where an object's content was taken from. */
  content: string;
  /** Which system times were read, and which the mock fills with the time of the snapshot. */
  times: string[];
  /** What the bounds left out. */
  cut: string[];
  /** What the deployment would not let the crawl read. */
  unread: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const iso = (value: unknown): string | undefined => {
  const ms = instantOf(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
};

/**
 * The pointers of an object's system fields, by what each stands for, told by their names:
 * the spec names no field, so a deployment's `/createdMs` or `/_rev` is read by its name.
 */
function systemTimes(pointers: readonly string[]): {
  created?: string;
  updated?: string;
  version?: string;
} {
  const find = (pattern: RegExp) => pointers.find((pointer) => pattern.test(pointer));
  return {
    created: find(/creat/i),
    updated: find(/updat|chang|modif/i),
    version: find(/vers|rev/i),
  };
}

/**
 * Where an object's content is: the description's `object.content`, else `/content` where the
 * object has one (our document's), else the object less its id and system fields.
 */
export function contentOf(target: Target, object: unknown): { content: unknown; from: string } {
  const declared = target.contentAt(object);
  if (declared)
    return {
      content: declared.content,
      from: `object.content (${target.description.object.content})`,
    };
  if (isObject(object) && 'content' in object)
    return { content: object['content'], from: '/content' };
  const { id, systemFields } = target.description.object;
  const rest = isObject(object) ? { ...object } : {};
  for (const pointer of [id, ...systemFields]) {
    const field = pointer.split('/')[1];
    if (field !== undefined && pointer.split('/').length === 2) delete rest[field];
  }
  return { content: rest, from: 'the object less its id and system fields' };
}

/**
 * The largest page a crawl asks for: the description's limit, else our document's (100), so that
 * a deployment is read in as few requests as it allows.
 */
const pageSizeOf = (target: Target) => target.description.limits.pageSize ?? 100;

/**
 * Crawls the collections and objects `key`'s account holds, page by page, within what `left`
 * allows (shared by the accounts of one snapshot), and hands each collection to `store` as soon
 * as it is read, so that the crawl holds one collection's objects at a time, whatever the
 * deployment holds. `onProgress` is told after each collection.
 */
export async function crawlAccount(
  target: Target,
  key: string,
  bounds: CrawlBounds,
  left: { collections: number; objects: number },
  notes: CrawlNotes,
  store: (collection: CrawledCollection) => Promise<void>,
  onProgress: (collections: number, objects: number) => void = () => undefined,
): Promise<void> {
  const pageSize = pageSizeOf(target);
  const summaries = await target.walkCollections({ key, pageSize });
  let crawled = 0;
  const times = systemTimes(target.description.object.systemFields);
  if (summaries.length > left.collections)
    notes.cut.push(
      `${summaries.length - left.collections} collections past --max-collections ${bounds.maxCollections}`,
    );
  for (const summary of summaries.slice(0, Math.max(0, left.collections))) {
    const sourceId = target.collectionIdOf(summary);
    if (sourceId === undefined) continue;
    left.collections -= 1;
    const metadata = target.metadataOf(summary);
    const created = target.createdAtOf(summary);
    const collection: CrawledCollection = {
      sourceId,
      name: target.nameOf(summary) ?? sourceId,
      metadata: isObject(metadata) ? metadata : {},
      createdAt: created === undefined ? undefined : new Date(created).toISOString(),
      objects: [],
    };
    collection.updatedAt = collection.createdAt;
    const take = Math.min(bounds.maxObjectsPerCollection, left.objects);
    if (take > 0 && target.offers('listObjects')) {
      // @note A collection the list shows whose objects cannot be listed (a list the target
      // broke off, a collection it answers as gone) is copied without them, and said.
      const walk = await target
        .walk({ operation: 'listObjects', key, pageSize, params: { collection_id: sourceId } })
        .catch((error: unknown) => {
          if (!(error instanceof CheckFailure)) throw error;
          notes.unread.push(`collection ${sourceId}: its objects, not read: ${error.message}`);
          return undefined;
        });
      if (walk === undefined) {
        await store(collection);
        onProgress((crawled += 1), left.objects);
        continue;
      }
      if (walk.items.length > take) {
        collection.cut = true;
        notes.cut.push(
          `collection ${sourceId}: ${walk.items.length - take} of its ${walk.items.length} objects past the bounds`,
        );
      }
      for (const object of walk.items.slice(0, take)) {
        const objectId = target.objectIdOf(object);
        if (objectId === undefined) continue;
        const { content, from } = contentOf(target, object);
        notes.content = from;
        const version = times.version ? resolvePointer(object, times.version) : undefined;
        collection.objects.push({
          sourceId: objectId,
          content,
          createdAt: times.created ? iso(resolvePointer(object, times.created)) : undefined,
          updatedAt: times.updated ? iso(resolvePointer(object, times.updated)) : undefined,
          version:
            Number.isInteger(version) && (version as number) >= 1 ? (version as number) : undefined,
        });
      }
      left.objects -= collection.objects.length;
    }
    await store(collection);
    onProgress((crawled += 1), left.objects);
  }
}

/** What the notes say of the system times the description lets a crawl read. */
export function timesNotes(target: Target): string[] {
  const times = systemTimes(target.description.object.systemFields);
  const read = (what: string, pointer: string | undefined) =>
    pointer === undefined
      ? `an object's ${what}: not shown by the description's system fields; the mock's clock at the snapshot fills it`
      : `an object's ${what}: read from ${pointer}`;
  // @note The store takes a time it has for both (snapshot-store.ts `times`): a creation time
  // not shown is the last change, and the other way round.
  const either = (what: string, pointer: string | undefined, other: string | undefined) =>
    pointer === undefined && other !== undefined
      ? `an object's ${what}: not shown by the description's system fields; taken as the time read from ${other}`
      : read(what, pointer);
  return [
    `a collection's creation time: read from ${target.description.collection.createdAt}; its last change taken as that time (the spec shows none)`,
    either('creation time', times.created, times.updated),
    either('last change', times.updated, times.created),
    read('version', times.version),
  ];
}
