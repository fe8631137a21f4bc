import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_DOCUMENT_URL,
  GENERATED_TYPES_URL,
  generateDocumentModule,
  generateTypes,
} from '../scripts/generate-types.ts';

describe('generated files', () => {
  it.each([
    { file: 'src/generated/openapi.ts', url: GENERATED_TYPES_URL, generate: generateTypes },
    {
      file: 'src/generated/openapi-document.ts',
      url: GENERATED_DOCUMENT_URL,
      generate: generateDocumentModule,
    },
  ])(
    '$file matches a fresh generation from openapi.yaml',
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
