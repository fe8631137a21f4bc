import type { HeaderBag } from './http.ts';
import type { MockResponse } from './http.ts';
import { problem, type ProblemCode } from './problem.ts';
import type { OperationSpec } from '../openapi/operations.ts';

/** The problem code a forced status is answered with. */
function codeFor(status: number, operation: OperationSpec): ProblemCode | undefined {
  switch (status) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'invalid_api_key';
    case 404:
      return operation.template.includes('{object_id}')
        ? 'object_not_found'
        : 'collection_not_found';
    case 409:
      return 'collection_name_taken';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 500:
      return 'internal_error';
    default:
      return undefined;
  }
}

/** The statuses a test can force on an operation: declared by openapi.yaml, with a problem code. */
export function forcibleStatuses(operation: OperationSpec): number[] {
  return operation.statuses.filter((status) => status >= 400 && codeFor(status, operation));
}

/**
 * The response for an error forced by a test (`Prefer: code=429`, after Prism's convention, or a
 * queued failure). Only statuses `openapi.yaml` declares for the operation can be forced, so a
 * forced response is still a valid response of the contract.
 */
export function forcedError(operation: OperationSpec, status: number, how: string): MockResponse {
  const code = operation.statuses.includes(status) ? codeFor(status, operation) : undefined;
  if (!code) {
    const forcible = operation.statuses.filter((s) => codeFor(s, operation)).join(', ');
    return problem(
      'invalid_parameter',
      `${how} cannot force ${status} on ${operation.operationId}; it can force ${forcible}.`,
      {
        errors: [
          { location: 'header', pointer: 'Prefer', message: `must name one of ${forcible}` },
        ],
      },
    );
  }
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="answers", error="invalid_token"';
  if (status === 429) headers['retry-after'] = '1';
  return problem(code, `Forced by the mock (${how}).`, { headers });
}

/** The status a `Prefer: code=NNN` header asks for, if any. */
export function preferredStatus(headers: HeaderBag): number | undefined {
  const prefer = headers.get('prefer');
  const match = prefer ? /(?:^|[,;\s])code=(\d{3})(?:$|[,;\s])/i.exec(prefer) : null;
  return match ? Number(match[1]) : undefined;
}
