import { maskApiKey } from '../core/api-key.ts';

/** What the log line of one request says. */
export interface Outcome {
  status: number;
  operationId?: string | undefined;
  /** The key the request presented, as the core read it; the log shows it masked, never whole. */
  presentedKey?: string | undefined;
}

/**
 * One request log line: client address, method, path (no query: it may carry a key), status,
 * time, operation and the masked key, e.g.
 * `127.0.0.1 GET /api/answers/v1/collections 200 0.4ms listCollections key=…acme`.
 */
export function logLine(
  client: string | undefined,
  method: string | undefined,
  path: string | undefined,
  outcome: Outcome,
  ms: number,
): string {
  const { status, operationId, presentedKey } = outcome;
  const key = presentedKey === undefined ? undefined : `key=${maskApiKey(presentedKey)}`;
  return [
    client?.replace(/^::ffff:/, ''),
    method,
    path,
    status,
    `${ms.toFixed(1)}ms`,
    operationId,
    key,
  ]
    .filter(Boolean)
    .join(' ');
}
