/**
 * Faults of refusals: what a bad cursor, an unknown id, an unsupported method, a body that is not
 * JSON or a request both invalid and unauthenticated gets.
 */
import { validateBody, validateParameters } from '../core/request-validation.ts';
import { problem } from '../core/problem.ts';
import { operationIdOf, problemCode, routeOf, withQuery, type Fault } from './kit.ts';

/** A fault's wrap that answers 500 internal_error wherever the core answers one of `codes`. */
function internalErrorFor(...codes: string[]): Fault['wrap'] {
  return () => async (request, next) => {
    const result = await next(request);
    if (!codes.includes(problemCode(result.response) ?? '')) return result;
    const response = problem('internal_error', 'The service failed to answer this request.');
    return { ...result, response };
  };
}

export const NEGATIVE_FAULTS = {
  'cursor-ignored': {
    description:
      'A list cursor that cannot be used (malformed, tampered, foreign) restarts the list at its first page instead of 400 invalid_cursor.',
    clauses: ['GAP-PAGE-PARAMS'],
    wrap: () => async (request, next) => {
      const result = await next(request);
      const listing = ['listCollections', 'listObjects'].includes(operationIdOf(result) ?? '');
      if (!listing || problemCode(result.response) !== 'invalid_cursor') return result;
      return next(withQuery(request, (query) => query.delete('cursor')));
    },
  },

  'not-found-is-500': {
    description:
      'A collection or object id that names nothing visible gets 500 internal_error instead of 404 collection_not_found / object_not_found.',
    clauses: ['GAP-IDS', 'GAP-ERR-CODES', 'GAP-ERR-STATUS'],
    wrap: internalErrorFor('collection_not_found', 'object_not_found'),
  },

  'method-not-allowed-404': {
    description:
      'A method a path does not support gets 404 not_found without an Allow header instead of 405.',
    clauses: ['GAP-METHODS', 'GAP-ERR-STATUS'],
    wrap: () => async (request, next) => {
      const result = await next(request);
      if (result.response.status !== 405) return result;
      return {
        ...result,
        response: problem(
          'not_found',
          `No operation of the Answers API has the path ${request.path}.`,
        ),
      };
    },
  },

  'malformed-json-500': {
    description:
      'A request body that is not valid JSON gets 500 internal_error instead of 400 malformed_json.',
    clauses: ['GAP-ERR-CODES', 'GAP-ERR-STATUS'],
    wrap: internalErrorFor('malformed_json'),
  },

  'validation-before-auth': {
    description:
      'Parameters and bodies are validated before the key: an invalid request without a valid key gets 400 instead of 401.',
    clauses: ['GAP-ORDER-CHECK', 'AUTH-5'],
    wrap: () => async (request, next) => {
      const result = await next(request);
      const route = routeOf(request);
      if (result.response.status !== 401 || !route) return result;
      const body = validateBody(route.operation, request);
      if (!body.ok) return { ...result, response: body.response };
      const input = validateParameters(route.operation, request, route.params);
      return input.ok ? result : { ...result, response: input.response };
    },
  },
} as const satisfies Record<string, Fault>;
