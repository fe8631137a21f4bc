import type { Permission } from './api-key.ts';
import { document, resolveRef } from './openapi/document.ts';

/** A parameter of an operation, as `openapi.yaml` declares it. */
export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Record<string, unknown>;
}

/** One operation of `openapi.yaml`, with what the core needs to serve it. */
export interface OperationSpec {
  operationId: string;
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

/** The result of matching a path. */
export interface RouteMatch {
  /** Operations of the path, by upper-case method. */
  operations: Map<string, OperationSpec>;
  params: Record<string, string>;
  /** The prefix the request used, e.g. `/api/answers/v1`, for building `Location` headers. */
  prefix: string;
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

interface Route {
  segments: string[];
  operations: Map<string, OperationSpec>;
}

function buildRoutes(): Route[] {
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
        operationId: operation.operationId as string,
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

const ROUTES = buildRoutes();

/** Every operation of the document, by operationId. */
export const OPERATIONS = new Map(
  ROUTES.flatMap((route) =>
    [...route.operations.values()].map((op) => [op.operationId, op] as const),
  ),
);

/**
 * Matches a request path against the operations of `openapi.yaml` under any of the API prefixes.
 * Returns undefined when no path of the document matches.
 */
export function matchRoute(path: string): RouteMatch | undefined {
  for (const prefix of API_PREFIXES) {
    if (!path.startsWith(`${prefix}/`)) continue;
    const segments = path.slice(prefix.length + 1).split('/');
    for (const route of ROUTES) {
      const params = matchSegments(route.segments, segments);
      if (params) return { operations: route.operations, params, prefix };
    }
  }
  return undefined;
}

function matchSegments(template: string[], actual: string[]): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const expected = template[i]!;
    const segment = actual[i]!;
    if (expected.startsWith('{')) {
      if (segment === '') return undefined;
      try {
        params[expected.slice(1, -1)] = decodeURIComponent(segment);
      } catch {
        // @note A malformed percent-escape cannot name any resource: treat the path as unknown.
        return undefined;
      }
    } else if (expected !== segment) {
      return undefined;
    }
  }
  return params;
}
