import express, { type Router } from 'express';
import { CONTROL_PREFIX } from '../core/control-routes.ts';
import type { AnswersMock } from '../core/create-mock.ts';
import { matchRoute } from '../core/router.ts';
import { answer, logInternalError, sendResponse } from '../node/answer.ts';
import { readMockRequest } from '../node/read-body.ts';

/** Options of {@link createAnswersRouter}. */
export interface AnswersRouterOptions {
  /** Serves the control API under `/__mock`. Default true. */
  control?: boolean | undefined;
}

/**
 * An express 5 router serving a mock of the Answers API (and its control API), to mount in a dev
 * server with `app.use(createAnswersRouter(mock))`. Mount it before any body parser: it reads
 * the raw body itself. Paths that are not the mock's go on to the app's other routes untouched.
 */
export function createAnswersRouter(mock: AnswersMock, options: AnswersRouterOptions = {}): Router {
  const control = options.control ?? true;
  const router = express.Router();
  router.use(async (req, res, next) => {
    const path = req.path;
    const isControl = control && (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`));
    // @note Decided before reading the body, so that the app's own routes still get theirs;
    // `matchRoute` is exactly the check behind the core's 404 `not_found`.
    if (!isControl && !matchRoute(path)) return next();
    const { response, internal } = await answer(mock, await readMockRequest(req), control);
    if (internal !== undefined) logInternalError(internal);
    sendResponse(res, response);
  });
  return router;
}
