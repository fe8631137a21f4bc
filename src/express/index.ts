export { createAnswersRouter, type AnswersRouterOptions } from './router.ts';
