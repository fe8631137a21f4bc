import type { OperationId } from '../../openapi/operations.ts';
import type { Handler } from './handler.ts';
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

/**
 * The handler of every operation of `openapi.yaml`, by operationId. Typed by the generated
 * operation ids: an operation the document declares and the mock does not implement is a compile
 * error, not a 500 at run time.
 */
export const HANDLERS: { readonly [Id in OperationId]: Handler } = {
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
