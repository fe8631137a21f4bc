import { API_PREFIXES, PATHS, type OperationSpec } from '../openapi/operations.ts';

/** The result of matching a path. */
export interface RouteMatch {
  /** Operations of the path, by upper-case method. */
  operations: Map<string, OperationSpec>;
  params: Record<string, string>;
  /** The prefix the request used, e.g. `/api/answers/v1`, for building `Location` headers. */
  prefix: string;
}

/**
 * Matches a request path against the operations of `openapi.yaml` under any of the API prefixes.
 * Returns undefined when no path of the document matches.
 */
export function matchRoute(path: string): RouteMatch | undefined {
  for (const prefix of API_PREFIXES) {
    if (!path.startsWith(`${prefix}/`)) continue;
    const segments = path.slice(prefix.length + 1).split('/');
    for (const route of PATHS) {
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
