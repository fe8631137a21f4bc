import type { ValidateFunction } from 'ajv';
import type { ClauseId } from '../generated/clauses.ts';
import type { operations } from '../generated/openapi.ts';
import { RESPONSE_VALIDATORS } from '../generated/response-validators.ts';
import { document, resolveRef } from './document.ts';
import { OPERATIONS } from './operations.ts';

/** A response as seen by a client: status, headers and the body text. */
export interface ObservedResponse {
  status: number;
  headers: Headers;
  body: string;
}

interface ResponseSpec {
  headers?: Record<string, { required?: boolean } | { $ref: string }>;
  content?: Record<string, { schema: { $ref?: string } }>;
}

/** The validators of response bodies, by JSON pointer, compiled ahead of time like the mock's own. */
const validators = RESPONSE_VALIDATORS as unknown as Record<string, ValidateFunction | undefined>;

function responseSpec(operationId: string, status: number): ResponseSpec | undefined {
  const operation = OPERATIONS.get(operationId);
  if (!operation) return undefined;
  const item = document.paths[operation.template]?.[operation.method.toLowerCase()] as {
    responses: Record<string, unknown>;
  };
  const raw =
    item.responses[String(status)] ??
    item.responses[`${String(status)[0]}XX`] ??
    item.responses.default;
  return raw ? resolveRef<ResponseSpec>(raw as ResponseSpec) : undefined;
}

/** One way a response breaks `openapi.yaml`, and the decision of docs/spec-gaps.md it goes against. */
export interface Violation {
  /** Unknown only for a proxy's finding on a request sent as no operation (a followed link). */
  clause: ClauseId | undefined;
  message: string;
}

/** The decision a successful answer's body (and its headers) is judged on, by operation. */
const BODY_DECISION: Record<keyof operations, ClauseId> = {
  listCollections: 'GAP-PAGE-FIELDS',
  createCollection: 'GAP-COLL-FIELDS',
  getCollection: 'GAP-COLL-FIELDS',
  updateCollection: 'GAP-COLL-FIELDS',
  deleteCollection: 'GAP-COLL-FIELDS',
  listObjects: 'GAP-OBJ-FIELDS',
  createObject: 'GAP-OBJ-FIELDS',
  getObject: 'GAP-OBJ-FIELDS',
  replaceObject: 'GAP-OBJ-FIELDS',
  updateObject: 'GAP-OBJ-FIELDS',
  deleteObject: 'GAP-OBJ-FIELDS',
  searchObjects: 'GAP-SEARCH-RESP',
};

/**
 * The decision a body of `status` from `operationId` is judged on: an error's body is our
 * problem format (GAP-ERR-BODY), a success's the operation's fields.
 */
export function bodyDecision(operationId: keyof operations, status: number): ClauseId {
  return status >= 400 ? 'GAP-ERR-BODY' : BODY_DECISION[operationId];
}

/**
 * Checks a response against what `openapi.yaml` declares for the operation and status: the status
 * is documented, the content type is the declared one, required headers are present, and the body
 * matches the schema. Returns the violations (empty when the response conforms), each with the
 * decision it goes against.
 */
export function responseViolations(operationId: string, response: ObservedResponse): Violation[] {
  const spec = responseSpec(operationId, response.status);
  if (!spec)
    return [
      {
        clause: 'GAP-ERR-STATUS',
        message: `status ${response.status} is not documented for ${operationId}`,
      },
    ];
  // @note Documented, so one of openapi.yaml's operations.
  const body = bodyDecision(operationId as keyof operations, response.status);
  const violations: Violation[] = [];
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    const resolved = resolveRef<{ required?: boolean }>(header as { required?: boolean });
    if (resolved.required && !response.headers.has(name))
      violations.push({
        clause: name.toLowerCase() === 'www-authenticate' ? 'GAP-AUTH-CHALLENGE' : body,
        message: `header ${name} is missing`,
      });
  }
  const media = Object.entries(spec.content ?? {});
  if (media.length === 0) {
    if (response.body !== '')
      violations.push({
        clause: body,
        message: `expected no body, got ${response.body.length} characters`,
      });
    return violations;
  }
  const contentType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const match = media.find(([type]) => type === contentType);
  if (!match) {
    violations.push({
      clause: 'GAP-MEDIA',
      message: `content type ${contentType ?? '(none)'} is not ${media.map(([type]) => type).join(' or ')}`,
    });
    return violations;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    violations.push({ clause: body, message: 'body is not JSON' });
    return violations;
  }
  const pointer = match[1].schema.$ref;
  if (pointer) {
    const validate = validators[pointer];
    if (!validate) throw new Error(`openapi.yaml has no response body schema at ${pointer}`);
    if (!validate(parsed)) {
      for (const error of validate.errors ?? [])
        violations.push({ clause: body, message: `body${error.instancePath} ${error.message}` });
    }
  }
  return violations;
}

/** `responseViolations`' messages alone (the kit's public helper). */
export function validateResponse(operationId: string, response: ObservedResponse): string[] {
  return responseViolations(operationId, response).map(({ message }) => message);
}
