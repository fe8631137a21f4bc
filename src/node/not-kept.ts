/**
 * The 507 `insufficient_storage` of the Node server for what it could not keep on disk: a change
 * the state file could not save, an exchange the recording could not hold. The same problem
 * either way, so a client tells both apart only by the detail.
 */
import { problem } from '../core/problem.ts';

/** The answer to a request whose `what` (the state file, the recording) could not be written. */
export function notKept(what: string, error: Error, so: string) {
  return problem('insufficient_storage', `${what} cannot be written (${error.message}), so ${so}.`);
}
