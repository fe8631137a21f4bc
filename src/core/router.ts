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
 * A path of the document, split once: at each position the literal segment expected there, or
 * (where the literal is undefined) the name of the parameter it carries.
 * @note Two flat arrays rather than one object per segment: matching then reads plain strings,
 * with no `in` test on segments of two shapes (a sixth of the router's time per request).
 */
interface Route {
  literals: ReadonlyArray<string | undefined>;
  parameters: ReadonlyArray<string | undefined>;
  operations: Map<string, OperationSpec>;
}

/**
 * The paths of the document by their number of segments, each list in document order.
 * @note Built once: matching a request compares segments only, with no template parsed again.
 */
const ROUTES_BY_LENGTH = new Map<number, Route[]>();
for (const path of PATHS) {
  const isParameter = (segment: string) => segment.startsWith('{');
  const route: Route = {
    literals: path.segments.map((segment) => (isParameter(segment) ? undefined : segment)),
    parameters: path.segments.map((segment) =>
      isParameter(segment) ? segment.slice(1, -1) : undefined,
    ),
    operations: path.operations,
  };
  const routes = ROUTES_BY_LENGTH.get(route.literals.length) ?? [];
  routes.push(route);
  ROUTES_BY_LENGTH.set(route.literals.length, routes);
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
    const literal = route.literals[i];
    if (literal !== undefined && literal !== actual[i]) return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < actual.length; i++) {
    const parameter = route.parameters[i];
    if (parameter === undefined) continue;
    const segment = actual[i]!;
    if (segment === '') return undefined;
    if (!segment.includes('%')) {
      params[parameter] = segment;
      continue;
    }
    try {
      params[parameter] = decodeURIComponent(segment);
    } catch {
      // @note A malformed percent-escape cannot name any resource: treat the path as unknown.
      return undefined;
    }
  }
  return params;
}
