import express, { type Router } from 'express';
import type { AnswersMock } from '../core/mock.ts';
import { isMockPath, serve } from '../core/serve.ts';
import { logInternalError, readMockRequest, sendResponse } from '../node/node-io.ts';

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
    // @note Decided before reading the body, so that the app's own routes still get theirs.
    if (!isMockPath(req.path, { control })) return next();
    const { response, internal } = await serve(mock, await readMockRequest(req), { control });
    if (internal !== undefined) logInternalError(internal);
    sendResponse(res, response);
  });
  return router;
}
