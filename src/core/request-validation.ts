import type { ValidateFunction, ErrorObject } from 'ajv';
import { compileSchema, validatorAt } from '../openapi/ajv.ts';
import { problem, type FieldError } from './problem.ts';
import type { MockRequest, MockResponse } from './http.ts';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from './http.ts';
import { nestsDeeperThan, nonFiniteNumberAt } from './json-limits.ts';
import { OPERATIONS, type OperationSpec, type ParameterSpec } from '../openapi/operations.ts';

/** Each operation's parameters with their validators (compiled ahead of time: looked up once). */
const parameterValidators = new Map(
  [...OPERATIONS.values()].map((operation) => [
    operation.operationId as string,
    new Map(operation.parameters.map((p) => [p, compileSchema(p.schema)] as const)),
  ]),
);

function validatorsOf(operation: OperationSpec): Map<ParameterSpec, ValidateFunction> {
  return parameterValidators.get(operation.operationId) ?? new Map();
}

/** Turns a query string value into the JSON type the parameter's schema expects. */
function coerce(value: string, schema: Record<string, unknown>): unknown {
  if (
    (schema.type === 'integer' || schema.type === 'number') &&
    /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)
  ) {
    return Number(value);
  }
  return value;
}

function describe(error: ErrorObject, unknownFieldNote = ''): string {
  if (error.keyword === 'additionalProperties') {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    return `"${field}" is not a field of this request body${unknownFieldNote}`;
  }
  if (error.keyword === 'enum') {
    return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return error.message ?? 'is invalid';
}

function pointerOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    return `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`;
  }
  if (error.keyword === 'required') {
    return `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`;
  }
  return error.instancePath || '/';
}

/**
 * The errors of a failed body validation, as the problem body's `errors` list. `unknownFieldNote`
 * follows the message for a field the schema does not have.
 */
export function bodyErrorsOf(validate: ValidateFunction, unknownFieldNote = ''): FieldError[] {
  return (validate.errors ?? []).map((error) => ({
    location: 'body',
    pointer: pointerOf(error),
    message: describe(error, unknownFieldNote),
  }));
}

/**
 * Validates path and query parameters against the operation's parameters in `openapi.yaml`.
 * Unknown query parameters are ignored (a key in the query string is never read).
 */
export function validateParameters(
  operation: OperationSpec,
  request: MockRequest,
  pathParams: Record<string, string>,
):
  | { ok: true; params: Record<string, string>; query: Record<string, unknown> }
  | { ok: false; response: MockResponse } {
  const errors: FieldError[] = [];
  const query: Record<string, unknown> = {};
  for (const [parameter, validate] of validatorsOf(operation)) {
    if (parameter.in === 'header') continue;
    let value: unknown;
    if (parameter.in === 'path') {
      value = pathParams[parameter.name];
    } else {
      const values = request.query.getAll(parameter.name);
      if (values.length > 1) {
        errors.push({
          location: 'query',
          pointer: parameter.name,
          message: 'must be given at most once',
        });
        continue;
      }
      if (values.length === 0) {
        if (parameter.required)
          errors.push({ location: 'query', pointer: parameter.name, message: 'is required' });
        else if (parameter.schema.default !== undefined)
          query[parameter.name] = parameter.schema.default;
        continue;
      }
      value = coerce(values[0]!, parameter.schema);
    }
    if (!validate(value)) {
      const message = (validate.errors ?? []).map((error) => describe(error)).join('; ');
      errors.push({ location: parameter.in, pointer: parameter.name, message });
    } else if (parameter.in === 'query') {
      query[parameter.name] = value;
    }
  }
  if (errors.length > 0) {
    const detail = errors
      .map((e) => `${e.location} parameter "${e.pointer}" ${e.message}`)
      .join('; ');
    return {
      ok: false,
      response: problem('invalid_parameter', `Invalid parameter: ${detail}.`, { errors }),
    };
  }
  return { ok: true, params: pathParams, query };
}

/** The media type of a request, lower-case, without parameters. */
function mediaTypeOf(request: MockRequest): string | undefined {
  return request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/** The `charset` parameter of the request's media type, lower-case and unquoted, if any. */
function charsetOf(request: MockRequest): string | undefined {
  const parameters = request.headers.get('content-type')?.split(';').slice(1) ?? [];
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=', 2).map((part) => part.trim());
    if (name?.toLowerCase() === 'charset') return value.replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

/**
 * Checks a request body: size, media type, JSON syntax and the schema in `openapi.yaml`.
 * @see docs/spec-gaps.md GAP-MEDIA, GAP-BODY-FIELDS, GAP-LIMIT-SIZE
 */
export function validateBody(
  operation: OperationSpec,
  request: MockRequest,
): { ok: true; body: unknown } | { ok: false; response: MockResponse } {
  if (!operation.bodySchema) return { ok: true, body: undefined };
  if (request.bodyTooLarge || (request.body && request.body.byteLength > MAX_BODY_BYTES)) {
    return {
      ok: false,
      response: problem(
        'payload_too_large',
        `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
      ),
    };
  }
  const mediaType = mediaTypeOf(request);
  if (!mediaType || !operation.bodyMediaTypes.includes(mediaType)) {
    return {
      ok: false,
      response: problem(
        'unsupported_media_type',
        `Send the body as ${operation.bodyMediaTypes.join(' or ')}${mediaType ? `, not ${mediaType}` : ' with a Content-Type header'}.`,
      ),
    };
  }
  const charset = charsetOf(request);
  if (charset !== undefined && charset !== 'utf-8') {
    return {
      ok: false,
      response: problem(
        'unsupported_media_type',
        'Send the body as UTF-8: the only charset parameter accepted is charset=utf-8.',
      ),
    };
  }
  const encoding = request.headers.get('content-encoding');
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return {
      ok: false,
      response: problem(
        'unsupported_media_type',
        `Content-Encoding "${encoding}" is not supported; send the body uncompressed.`,
      ),
    };
  }
  let body: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(request.body ?? new Uint8Array());
    if (text.trim() === '') {
      return {
        ok: false,
        response: problem(
          'validation_failed',
          'The request body is empty; this operation needs a JSON body.',
          { errors: [{ location: 'body', pointer: '/', message: 'is required' }] },
        ),
      };
    }
    body = JSON.parse(text);
  } catch (error) {
    // @note V8 quotes up to 20 characters of the input in some messages ("Unexpected token 'a',
    // "answers_te"... is not valid JSON"): the body, which may hold a key, is never echoed.
    const reason =
      error instanceof SyntaxError
        ? error.message.replace(/,? (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
        : 'the body is not valid UTF-8';
    return {
      ok: false,
      response: problem('malformed_json', `The request body is not valid JSON: ${reason}.`),
    };
  }
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      response: problem(
        'validation_failed',
        `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`,
        {
          errors: [
            {
              location: 'body',
              pointer: '/',
              message: `nests deeper than ${MAX_JSON_DEPTH} levels`,
            },
          ],
        },
      ),
    };
  }
  const overflow = nonFiniteNumberAt(body);
  if (overflow !== undefined) {
    return {
      ok: false,
      response: problem(
        'validation_failed',
        `The request body has a number at ${overflow} too large for a double (beyond ±1.8e308).`,
        {
          errors: [
            { location: 'body', pointer: overflow, message: 'is too large a number to store' },
          ],
        },
      ),
    };
  }
  const validate = validatorAt(operation.bodySchema);
  if (!validate(body)) {
    const errors = bodyErrorsOf(validate, ' (system fields are set by the service)');
    const detail = errors.map((e) => `${e.pointer} ${e.message}`).join('; ');
    return {
      ok: false,
      response: problem('validation_failed', `The request body is invalid: ${detail}.`, { errors }),
    };
  }
  return { ok: true, body };
}
