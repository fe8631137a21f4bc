import type { operations } from '../generated/openapi.ts';
import { document, resolveRef } from './document.ts';

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

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The path prefixes the API answers on, longest first, from the `servers` of `openapi.yaml`
 * (`{base_url}/api/answers/v1`, `{base_url}/api/answers`, `{base_url}/v1`).
 * @see docs/spec-gaps.md GAP-PATHS
 */
export const API_PREFIXES = document.servers
  .map((server) => server.url.replace(/^\{base_url\}/, ''))
  .sort((a, b) => b.length - a.length);

function buildPaths(): PathSpec[] {
  return Object.entries(document.paths).map(([template, item]) => {
    const operations = new Map<string, OperationSpec>();
    const shared = ((item.parameters as unknown[]) ?? []).map((p) =>
      resolveRef<ParameterSpec>(p as ParameterSpec),
    );
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      const own = ((operation.parameters as unknown[]) ?? []).map((p) =>
        resolveRef<ParameterSpec>(p as ParameterSpec),
      );
      const body = operation.requestBody
        ? resolveRef<{ content: Record<string, { schema: { $ref?: string } }> }>(
            operation.requestBody as { content: Record<string, { schema: { $ref?: string } }> },
          )
        : undefined;
      const firstMedia = body ? Object.values(body.content)[0] : undefined;
      operations.set(method.toUpperCase(), {
        operationId: operation.operationId as OperationId,
        method: method.toUpperCase(),
        template,
        permission: operation['x-permission'] as Permission,
        parameters: [...shared.filter((p) => !own.some((o) => o.name === p.name)), ...own],
        bodySchema: firstMedia?.schema.$ref,
        bodyMediaTypes: body ? Object.keys(body.content) : [],
        statuses: Object.keys(operation.responses as object).map(Number),
      });
    }
    return { segments: template.split('/').slice(1), operations };
  });
}

/** Every path of the document, in document order. */
export const PATHS: readonly PathSpec[] = buildPaths();

/** Every operation of the document, by operationId. */
export const OPERATIONS: ReadonlyMap<string, OperationSpec> = new Map(
  PATHS.flatMap((path) =>
    [...path.operations.values()].map((op) => [op.operationId as string, op] as const),
  ),
);
