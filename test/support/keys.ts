/** The dev keys of the default seed (src/seed/dev-keys.ts), by what the tests use them for. */
export const KEYS = {
  full: 'answers_test_full_acme',
  readonly: 'answers_test_readonly_acme',
  globex: 'answers_test_full_globex',
  inactive: 'answers_test_inactive_acme',
  initech: 'answers_test_full_initech',
} as const;
