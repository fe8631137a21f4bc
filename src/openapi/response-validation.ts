import type { ValidateFunction } from 'ajv';
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

/**
 * Checks a response against what `openapi.yaml` declares for the operation and status: the status
 * is documented, the content type is the declared one, required headers are present, and the body
 * matches the schema. Returns the violations (empty when the response conforms).
 */
export function validateResponse(operationId: string, response: ObservedResponse): string[] {
  const spec = responseSpec(operationId, response.status);
  if (!spec) return [`status ${response.status} is not documented for ${operationId}`];
  const violations: string[] = [];
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    const resolved = resolveRef<{ required?: boolean }>(header as { required?: boolean });
    if (resolved.required && !response.headers.has(name))
      violations.push(`header ${name} is missing`);
  }
  const media = Object.entries(spec.content ?? {});
  if (media.length === 0) {
    if (response.body !== '')
      violations.push(`expected no body, got ${response.body.length} characters`);
    return violations;
  }
  const contentType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const match = media.find(([type]) => type === contentType);
  if (!match) {
    violations.push(
      `content type ${contentType ?? '(none)'} is not ${media.map(([type]) => type).join(' or ')}`,
    );
    return violations;
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    violations.push('body is not JSON');
    return violations;
  }
  const pointer = match[1].schema.$ref;
  if (pointer) {
    const validate = validators[pointer];
    if (!validate) throw new Error(`openapi.yaml has no response body schema at ${pointer}`);
    if (!validate(body)) {
      for (const error of validate.errors ?? [])
        violations.push(`body${error.instancePath} ${error.message}`);
    }
  }
  return violations;
}
