import { API_PREFIXES, PATHS, type OperationSpec } from '../openapi/operations.ts';

/** The result of matching a path. */
export interface RouteMatch {
  /** Operations of the path, by upper-case method. */
  operations: Map<string, OperationSpec>;
  params: Record<string, string>;
  /** The prefix the request used, e.g. `/api/answers/v1`, for building `Location` headers. */
  prefix: string;
}

/** A path of the document, split once: each segment literal, or the name of a parameter. */
interface Route {
  segments: ReadonlyArray<{ literal: string } | { parameter: string }>;
  operations: Map<string, OperationSpec>;
}

/**
 * The paths of the document by their number of segments, each list in document order.
 * @note Built once: matching a request compares segments only, with no template parsed again.
 */
const ROUTES_BY_LENGTH = new Map<number, Route[]>();
for (const path of PATHS) {
  const route: Route = {
    segments: path.segments.map((segment) =>
      segment.startsWith('{') ? { parameter: segment.slice(1, -1) } : { literal: segment },
    ),
    operations: path.operations,
  };
  const routes = ROUTES_BY_LENGTH.get(route.segments.length) ?? [];
  routes.push(route);
  ROUTES_BY_LENGTH.set(route.segments.length, routes);
}

/**
 * Matches a request path against the operations of `openapi.yaml` under any of the API prefixes.
 * Returns undefined when no path of the document matches.
 */
export function matchRoute(path: string): RouteMatch | undefined {
  for (const prefix of API_PREFIXES) {
    if (!path.startsWith(prefix) || path.charCodeAt(prefix.length) !== 0x2f /* / */) continue;
    const segments = path.slice(prefix.length + 1).split('/');
    for (const route of ROUTES_BY_LENGTH.get(segments.length) ?? []) {
      const params = matchSegments(route, segments);
      if (params) return { operations: route.operations, params, prefix };
    }
  }
  return undefined;
}

function matchSegments(route: Route, actual: string[]): Record<string, string> | undefined {
  for (let i = 0; i < actual.length; i++) {
    const expected = route.segments[i]!;
    if ('literal' in expected && expected.literal !== actual[i]) return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < actual.length; i++) {
    const expected = route.segments[i]!;
    if ('literal' in expected) continue;
    const segment = actual[i]!;
    if (segment === '') return undefined;
    if (!segment.includes('%')) {
      params[expected.parameter] = segment;
      continue;
    }
    try {
      params[expected.parameter] = decodeURIComponent(segment);
    } catch {
      // @note A malformed percent-escape cannot name any resource: treat the path as unknown.
      return undefined;
    }
  }
  return params;
}
