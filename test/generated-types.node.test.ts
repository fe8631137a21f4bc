import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_CLAUSES_URL,
  GENERATED_DOCUMENT_URL,
  GENERATED_TYPES_URL,
  generateClausesModule,
  generateDocumentModule,
  generateTypes,
} from '../scripts/generate-types.ts';

describe('generated files', () => {
  it.each([
    { file: 'src/generated/openapi.ts', url: GENERATED_TYPES_URL, generate: generateTypes },
    {
      file: 'src/generated/clauses.ts',
      url: GENERATED_CLAUSES_URL,
      generate: generateClausesModule,
    },
    {
      file: 'src/generated/openapi-document.ts',
      url: GENERATED_DOCUMENT_URL,
      generate: generateDocumentModule,
    },
  ])(
    '$file matches a fresh generation from its source',
    async ({ file, url, generate }) => {
      const fresh = await generate();
      const committed = await readFile(url, 'utf8').catch(() => null);
      expect(
        committed,
        `${file} is missing: run \`npm run generate\` and commit the result`,
      ).not.toBeNull();
      expect(
        committed === fresh,
        `${file} is out of date with openapi.yaml: run \`npm run generate\` and commit the result`,
      ).toBe(true);
    },
    30_000,
  );
});
