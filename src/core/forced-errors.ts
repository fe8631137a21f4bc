import type { HeaderBag } from './http.ts';
import type { MockResponse } from './http.ts';
import { problem, problemResponse, type ProblemCode } from './problem.ts';
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

/**
 * What a gateway in front of any HTTP service answers, whatever the service's contract says: a
 * client meets these in production, so a test can force them on every operation. They are the
 * mock's own codes, not codes of the Answers API (openapi.yaml does not list them).
 */
const GATEWAY_ANSWERS = {
  502: { code: 'bad_gateway', title: 'Bad gateway' },
  503: { code: 'service_unavailable', title: 'Service unavailable' },
  504: { code: 'gateway_timeout', title: 'Gateway timeout' },
} as const;

/** A status a gateway may answer on any operation (502, 503, 504). */
type GatewayStatus = keyof typeof GATEWAY_ANSWERS;

function isGatewayStatus(status: number): status is GatewayStatus {
  return Object.hasOwn(GATEWAY_ANSWERS, status);
}

/**
 * The statuses a test can force on an operation: those openapi.yaml declares for it (with a
 * problem code), then the gateway answers.
 */
export function forcibleStatuses(operation: OperationSpec): number[] {
  const documented = operation.statuses.filter(
    (status) => status >= 400 && codeFor(status, operation),
  );
  return [...documented, ...Object.keys(GATEWAY_ANSWERS).map(Number)];
}

/**
 * The response for an error forced by a test (`Prefer: code=429`, after Prism's convention, or a
 * queued failure). Only statuses `openapi.yaml` declares for the operation can be forced, so a
 * forced response is still a valid response of the contract.
 */
export function forcedError(operation: OperationSpec, status: number, how: string): MockResponse {
  if (isGatewayStatus(status)) {
    // @note RFC 9110 section 10.2.3: a 503 may say when to come back; a client that honours it
    // is what a test of this answer usually checks.
    const headers: Record<string, string> = status === 503 ? { 'retry-after': '1' } : {};
    return problemResponse(
      { ...GATEWAY_ANSWERS[status], status },
      `Forced by the mock (${how}): a gateway in front of the service answered.`,
      { headers },
    );
  }
  const code = operation.statuses.includes(status) ? codeFor(status, operation) : undefined;
  if (!code) {
    const forcible = forcibleStatuses(operation).join(', ');
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
