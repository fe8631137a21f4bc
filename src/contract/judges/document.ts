/**
 * What openapi.yaml's validation judged of a response that passed it (`--level profile`): the
 * decisions every answer is held to (its media type and status), an error's body, a 401's
 * challenge, and a success's body by operation (`bodyDecision`).
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { bodyDecision } from '../../openapi/response-validation.ts';
import { PROFILE_OPERATION } from '../target-api/target.ts';
import type { OperationName } from '../target-api/description.ts';
import { ok } from './status.ts';

export function judgedByDocument(operation: OperationName, status: number): ClauseId[] {
  return [
    'GAP-MEDIA',
    'GAP-ERR-STATUS',
    ...(status >= 400 ? (['GAP-ERR-BODY'] as const) : []),
    ...(status === 401 ? (['GAP-AUTH-CHALLENGE'] as const) : []),
    ...(ok(status) ? [bodyDecision(PROFILE_OPERATION[operation], status)] : []),
  ];
}
