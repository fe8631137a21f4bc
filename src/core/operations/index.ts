import type { Operation } from '../operation.ts';
import { createCollection } from './create-collection.ts';
import { createObject } from './create-object.ts';
import { deleteCollection } from './delete-collection.ts';
import { deleteObject } from './delete-object.ts';
import { getCollection } from './get-collection.ts';
import { getObject } from './get-object.ts';
import { listCollections } from './list-collections.ts';
import { listObjects } from './list-objects.ts';
import { replaceObject } from './replace-object.ts';
import { searchObjects } from './search-objects.ts';
import { updateCollection } from './update-collection.ts';
import { updateObject } from './update-object.ts';

/** Every operation of `openapi.yaml`, by operationId. */
export const operations: Record<string, Operation> = {
  listCollections,
  createCollection,
  getCollection,
  updateCollection,
  deleteCollection,
  listObjects,
  createObject,
  getObject,
  replaceObject,
  updateObject,
  deleteObject,
  searchObjects,
};
