/**
 * The single requests of the random sequences (creates, renames, replaces, patches, deletes and
 * gets): each resolved against the model into a request, with how its response must change the
 * model.
 */
import {
  check,
  checkCollection,
  checkObject,
  expectProblem,
  findCollection,
  locate,
  mergePatch,
  newId,
  newTimestamp,
  resolveCollection,
  resolveObject,
  type MCollection,
  type MObject,
  type Model,
} from './sequence-model.ts';
import type { Account, Single } from './sequence-operations.ts';
import type { Observed } from '../fuzz-support.ts';

/** A resolved request and how its response changes (and is checked against) the model. */
export interface Prepared {
  label: string;
  operationId: string;
  method: string;
  path: string;
  as: Account;
  body?: unknown;
  apply(model: Model, response: Observed): void;
}

export function prepare(model: Model, op: Single): Prepared {
  const as = op.as;
  const label = JSON.stringify(op).slice(0, 200);
  const base = { label, as };
  switch (op.op) {
    case 'createCollection':
      return {
        ...base,
        operationId: 'createCollection',
        method: 'POST',
        path: '/collections',
        body: { name: op.name },
        apply(m, r) {
          if (m[as].collections.some((c) => c.name === op.name))
            return expectProblem(label, r, 409, 'collection_name_taken');
          check(r.status === 201, `${label}: expected 201, got ${r.status} ${r.text}`);
          newId(m, label, r.json.id);
          newTimestamp(m, label, r.json.created_at);
          check(r.json.updated_at === r.json.created_at, `${label}: updated_at != created_at`);
          const created: MCollection = {
            id: r.json.id,
            name: op.name,
            created_at: r.json.created_at,
            updated_at: r.json.updated_at,
            objects: [],
          };
          checkCollection(label, r.json, created);
          m[as].collections.push(created);
        },
      };
    case 'renameCollection': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'updateCollection',
        method: 'PATCH',
        path: `/collections/${c}`,
        body: { name: op.name },
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          if (m[as].collections.some((x) => x.name === op.name && x !== collection))
            return expectProblem(label, r, 409, 'collection_name_taken');
          check(r.status === 200, `${label}: expected 200, got ${r.status} ${r.text}`);
          newTimestamp(m, label, r.json.updated_at);
          collection.name = op.name;
          collection.updated_at = r.json.updated_at;
          checkCollection(label, r.json, collection);
        },
      };
    }
    case 'deleteCollection': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'deleteCollection',
        method: 'DELETE',
        path: `/collections/${c}`,
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          check(r.status === 204, `${label}: expected 204, got ${r.status} ${r.text}`);
          const account = m[as];
          account.collections = account.collections.filter((x) => x !== collection);
          account.deletedCollections.push(c);
          for (const object of collection.objects) account.deletedObjects.push({ c, o: object.id });
        },
      };
    }
    case 'getCollection': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'getCollection',
        method: 'GET',
        path: `/collections/${c}`,
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          check(r.status === 200, `${label}: expected 200, got ${r.status}`);
          checkCollection(label, r.json, collection);
        },
      };
    }
    case 'createObject': {
      const c = resolveCollection(model, as, op.c);
      return {
        ...base,
        operationId: 'createObject',
        method: 'POST',
        path: `/collections/${c}/objects`,
        body: { content: op.content },
        apply(m, r) {
          const collection = findCollection(m, as, c);
          if (!collection) return expectProblem(label, r, 404, 'collection_not_found');
          check(r.status === 201, `${label}: expected 201, got ${r.status} ${r.text}`);
          newId(m, label, r.json.id);
          newTimestamp(m, label, r.json.created_at);
          const created: MObject = {
            id: r.json.id,
            collection_id: c,
            content: op.content,
            version: 1,
            created_at: r.json.created_at,
            updated_at: r.json.created_at,
          };
          checkObject(label, r.json, created);
          collection.objects.push(created);
        },
      };
    }
    case 'replaceObject':
    case 'patchObject':
    case 'deleteObject':
    case 'getObject': {
      const { c, o } = resolveObject(model, as, op.o);
      const [operationId, method] = {
        replaceObject: ['replaceObject', 'PUT'],
        patchObject: ['updateObject', 'PATCH'],
        deleteObject: ['deleteObject', 'DELETE'],
        getObject: ['getObject', 'GET'],
      }[op.op];
      return {
        ...base,
        operationId: operationId!,
        method: method!,
        path: `/collections/${c}/objects/${o}`,
        body:
          op.op === 'replaceObject'
            ? { content: op.content }
            : op.op === 'patchObject'
              ? { content: op.patch }
              : undefined,
        apply(m, r) {
          const found = locate(m, as, c, o);
          if ('code' in found) return expectProblem(label, r, 404, found.code);
          const { collection, object } = found;
          if (op.op === 'deleteObject') {
            check(r.status === 204, `${label}: expected 204, got ${r.status} ${r.text}`);
            collection.objects = collection.objects.filter((x) => x !== object);
            m[as].deletedObjects.push({ c, o });
            return;
          }
          check(r.status === 200, `${label}: expected 200, got ${r.status} ${r.text}`);
          if (op.op !== 'getObject') {
            newTimestamp(m, label, r.json.updated_at);
            object.content =
              op.op === 'replaceObject' ? op.content : mergePatch(object.content, op.patch);
            object.version += 1;
            object.updated_at = r.json.updated_at;
          }
          checkObject(label, r.json, object);
        },
      };
    }
  }
}
