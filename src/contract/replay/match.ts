/**
 * A recorded request read back through the description of what it was sent to: which operation
 * it was, the values in its path, and the run's values in its body. The inverse of
 * `Target.send`, which fills a description's templates with values.
 */
import { operationParameters, operationTemplates } from '../../generated/operations.ts';
import {
  OPERATION_IDS,
  OPERATION_NAMES,
  type OperationName,
  type TargetDescription,
} from '../target-api/description.ts';
import type { BodyValues } from '../target-api/target.ts';

export interface MatchedRequest {
  operation: OperationName;
  /** Path (and URL) placeholders, decoded: `collection_id`, `object_id`, … */
  params: Record<string, string>;
  /** The run's values the request carried, where the description's body template puts them. */
  values: BodyValues;
}

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * A path template as a pattern of a path's last segments: a recorded path carries the prefix of
 * the API root (`/api/answers/v1`), the template does not.
 */
function patternOf(path: string): { regex: RegExp; names: string[]; segments: number } {
  const names: string[] = [];
  const segments = path.split('/').filter(Boolean);
  const source = segments
    .map((segment) =>
      segment.replace(/\{([a-z_]+)\}|[^{}]+/g, (text, name: string | undefined) => {
        if (name === undefined) return escape(text);
        names.push(name);
        return '([^/]+)';
      }),
    )
    .join('/');
  return { regex: new RegExp(`(?:^|/)${source}/?$`), names, segments: segments.length };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The run's values a body holds where `template` has its placeholders. */
function unfill(template: unknown, body: unknown, into: BodyValues = {}): BodyValues {
  if (typeof template === 'string' && /^\{[a-z_]+\}$/.test(template)) {
    if (body !== undefined) (into as Record<string, unknown>)[template.slice(1, -1)] = body;
  } else if (isRecord(template) && isRecord(body)) {
    for (const [key, value] of Object.entries(template)) unfill(value, body[key], into);
  }
  return into;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value of a URL placeholder: a search's scope is ids joined by commas. */
function urlValue(name: string, text: string): unknown {
  return name === 'collection_ids' ? text.split(',').filter(Boolean) : text;
}

/**
 * The operation of `description` a request was, or undefined when none has its method and path
 * (another API's request in a HAR, or a path the API does not have). When several match, the
 * longest template wins (`/collections/{id}/objects` over `/objects`).
 */
export function matchRequest(
  description: TargetDescription,
  method: string,
  path: string,
  query: string,
  body: unknown,
): MatchedRequest | undefined {
  let best: (MatchedRequest & { segments: number }) | undefined;
  const search = new URLSearchParams(query);
  for (const operation of OPERATION_NAMES) {
    const template = description.operations[operation];
    if (!template || template.method.toUpperCase() !== method.toUpperCase()) continue;
    const [templatePath = '', templateQuery] = template.path.split('?');
    const { regex, names, segments } = patternOf(templatePath);
    const found = regex.exec(path);
    if (!found || (best && best.segments >= segments)) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name] = decoded(found[i + 1] ?? '')));
    const values: BodyValues = {};
    for (const [name, value] of new URLSearchParams(templateQuery ?? '')) {
      const placeholder = /^\{([a-z_]+)\}$/.exec(value)?.[1];
      const given = search.get(name);
      if (placeholder && given !== null)
        (values as Record<string, unknown>)[placeholder] = urlValue(placeholder, given);
    }
    // @note A value the path carries (`/search/{query}`) is a run's value too.
    for (const name of ['query', 'collection_ids'] as const)
      if (params[name] !== undefined)
        (values as Record<string, unknown>)[name] = urlValue(name, params[name]);
    const bodyTemplate = (description.bodies as Record<string, unknown>)[operation];
    if (bodyTemplate !== undefined) unfill(bodyTemplate, body, values);
    best = { operation, params, values, segments };
  }
  if (!best) return undefined;
  const { segments: _, ...matched } = best;
  return matched;
}

/**
 * The query parameters `operation` takes in `description`: those of its path template (`?q=…`),
 * a list's paging parameters, and our document's own (`order`) where the description keeps its
 * path. Any other is no part of the API call (a tracking tag, a signed URL's `sig`, an
 * `access_token` a proxy wanted).
 */
export function definedQuery(
  description: TargetDescription,
  operation: OperationName,
): Set<string> {
  const template = description.operations[operation];
  const [path = '', query = ''] = (template?.path ?? '').split('?');
  const names = new Set([...new URLSearchParams(query).keys()]);
  if (operation === 'listCollections' || operation === 'listObjects') {
    const paging =
      operation === 'listObjects'
        ? (description.objectList?.paging ?? description.paging)
        : description.paging;
    for (const name of [paging.pageSize, paging.pageToken, paging.page, paging.offset])
      if (name) names.add(name);
  }
  const id = OPERATION_IDS[operation];
  if (path === operationTemplates[id].path)
    for (const name of operationParameters[id].query) names.add(name);
  return names;
}

/** `query` (as sent, without `?`) with only the parameters `defined` holds, each as it was. */
export function keepDefined(query: string, defined: ReadonlySet<string>): string {
  return query
    .split('&')
    .filter((pair) => defined.has(decoded(pair.split('=')[0]!.replace(/\+/g, ' '))))
    .join('&');
}
