// @ts-check
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['src/generated/', 'node_modules/', 'dist/', 'coverage/', '.tmp/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a value that is deliberately unused (e.g. a field split off by destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The inspector page's script runs in a browser as written (tsconfig.inspector.json checks
    // its types): these are the browser's globals it uses.
    files: ['src/node/inspector/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'document',
          'location',
          'history',
          'sessionStorage',
          'fetch',
          'TextDecoderStream',
          'setTimeout',
          'URLSearchParams',
          'Event',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // Tests and the contract suite read JSON bodies of arbitrary implementations loosely and probe
    // them field by field; the responses themselves are checked against openapi.yaml.
    files: ['test/**/*.ts', 'src/contract/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
