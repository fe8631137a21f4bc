import type { operations } from '../generated/openapi.ts';
import { apiPrefixes, paths } from '../generated/openapi-parts.ts';

/** Every operationId of `openapi.yaml`, as a type (from the generated types). */
export type OperationId = keyof operations;

/** What an API key may do; each operation names the one it needs (`x-permission`). @see docs/spec-gaps.md GAP-PERMISSIONS */
export type Permission = 'read' | 'write' | 'search';

/** A parameter of an operation, as `openapi.yaml` declares it. */
export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Record<string, unknown>;
}

/** One operation of `openapi.yaml`, with what a server or a client needs to know of it. */
export interface OperationSpec {
  operationId: OperationId;
  method: string;
  template: string;
  permission: Permission;
  parameters: ParameterSpec[];
  /** JSON pointer of the request body schema, when the operation takes a body. */
  bodySchema?: string | undefined;
  /** Media types the request body may have. */
  bodyMediaTypes: string[];
  /** Statuses declared for the operation. */
  statuses: number[];
}

/** One path of the document with its operations by upper-case method. */
export interface PathSpec {
  /** The template split at `/`, without the leading empty part, e.g. `['collections', '{collection_id}']`. */
  segments: string[];
  operations: Map<string, OperationSpec>;
}

/**
 * The path prefixes the API answers on, longest first, from the `servers` of `openapi.yaml`
 * (`{base_url}/api/answers/v1`, `{base_url}/api/answers`, `{base_url}/v1`).
 * @see docs/spec-gaps.md GAP-PATHS
 */
export const API_PREFIXES: readonly string[] = apiPrefixes;

/** Every path of the document, in document order. */
export const PATHS: readonly PathSpec[] = paths.map((path) => ({
  segments: path.segments,
  operations: new Map(Object.entries(path.operations as unknown as Record<string, OperationSpec>)),
}));

/** Every operation of the document, by operationId. */
export const OPERATIONS: ReadonlyMap<string, OperationSpec> = new Map(
  PATHS.flatMap((path) =>
    [...path.operations.values()].map((op) => [op.operationId as string, op] as const),
  ),
);
