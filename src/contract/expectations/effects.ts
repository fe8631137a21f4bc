/**
 * What a write a correct target took leaves for the reads after it: one entry for every operation
 * of openapi.yaml (a new operation does not compile until it says what it leaves, reads too).
 */
import type { OperationName } from '../target-api/description.ts';
import type { BodyValues } from '../target-api/target.ts';
import type { CollectionPair, Expected, ObjectPair } from './state.ts';
import { created, updated } from './updates.ts';

/** What a write acted on: the pair it named or made, and the values it sent. */
interface Acted {
  collection?: CollectionPair | undefined;
  object?: ObjectPair | undefined;
  values: BodyValues;
}

type Effect = (expected: Expected, acted: Acted) => void;

/** A read leaves everything as it was. */
const read: Effect = () => undefined;

export const AFTER: { readonly [O in OperationName]: Effect } = {
  listCollections: read,
  getCollection: read,
  listObjects: read,
  getObject: read,
  search: read,
  createCollection: (expected, { collection }) => {
    if (collection) expected.collections.push(collection);
  },
  updateCollection: (_, { collection, values }) => {
    if (collection && values.metadata !== undefined)
      collection.metadata = updated(collection.metadata, values.metadata);
    if (collection && values.name !== undefined) collection.name = values.name;
  },
  // @note Its objects are gone with it: they are judged by their collection's state (DEL-2).
  deleteCollection: (_, { collection }) => {
    if (collection) collection.deleted = true;
  },
  createObject: (expected, { object }) => {
    if (object) expected.objects.push(object);
  },
  replaceObject: (_, { object, values }) => {
    if (!object) return;
    object.earlier.push(...Object.values(object.content));
    object.content = created(values.content);
  },
  updateObject: (_, { object, values }) => {
    if (!object) return;
    object.earlier.push(...Object.values(object.content));
    object.content = updated(object.content, values.content);
  },
  deleteObject: (_, { object }) => {
    if (object) object.deleted = true;
  },
};
