import type { components } from '../../generated/openapi.ts';
import { recordComponents } from '../../generated/openapi-parts.ts';

type Schemas = components['schemas'];

/** A collection as stored: the API's `Collection` without the derived count, plus its owner. */
export type CollectionRecord = Omit<Schemas['Collection'], 'object_count'> & { account_id: string };

/** An object as stored: the API's `Object` plus its owner. */
export type ObjectRecord = Schemas['Object'] & { account_id: string };

/** An account: the owner of collections, objects and API keys. */
export interface Account {
  id: string;
  name: string;
}

/**
 * JSON Schema of a stored record, derived from a component of `openapi.yaml`: the component's
 * properties minus `drop`, plus `account_id`.
 */
function recordSchema(component: 'Collection' | 'Object', drop: string[]): Record<string, unknown> {
  const source = recordComponents[component] as {
    properties: Record<string, unknown>;
    required: string[];
  };
  const properties: Record<string, unknown> = {
    ...source.properties,
    account_id: { type: 'string', minLength: 1 },
  };
  for (const name of drop) delete properties[name];
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    required: [...source.required.filter((name) => !drop.includes(name)), 'account_id'],
  };
}

/** Schema of stored collections (see {@link CollectionRecord}). */
export const collectionRecordSchema = recordSchema('Collection', ['object_count']);
/** Schema of stored objects (see {@link ObjectRecord}). */
export const objectRecordSchema = recordSchema('Object', []);

/** The API representation of a collection. @see spec §2 (COLL-2, COLL-3) */
export function toCollection(record: CollectionRecord, objectCount: number): Schemas['Collection'] {
  return {
    id: record.id,
    name: record.name,
    metadata: record.metadata,
    object_count: objectCount,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The API representation of an object. @see spec §2 (OBJ-3, OBJ-GET-1) */
export function toObject(record: ObjectRecord): Schemas['Object'] {
  return {
    id: record.id,
    collection_id: record.collection_id,
    content: record.content,
    created_at: record.created_at,
    updated_at: record.updated_at,
    version: record.version,
  };
}
