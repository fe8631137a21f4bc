import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_CLAUSES_URL,
  GENERATED_OPERATIONS_URL,
  GENERATED_DOCUMENT_URL,
  GENERATED_PARTS_URL,
  GENERATED_TYPES_URL,
  DEFAULT_DESCRIPTION_URL,
  TARGET_SCHEMA_URL,
  README_URL,
  generateClausesModule,
  generateReadmeKeys,
  generateDefaultDescriptionFile,
  generateTargetSchema,
  generateOperationsModule,
  generateDocumentModule,
  generatePartsModule,
  generateTypes,
} from '../../scripts/generate-types.ts';
import {
  GENERATED_REQUEST_VALIDATORS_URL,
  GENERATED_RESPONSE_VALIDATORS_URL,
  generateValidatorModules,
} from '../../scripts/generate-validators.ts';

describe('generated files', () => {
  it.each([
    { file: 'src/generated/openapi.ts', url: GENERATED_TYPES_URL, generate: generateTypes },
    {
      file: 'src/generated/clauses.ts',
      url: GENERATED_CLAUSES_URL,
      generate: generateClausesModule,
    },
    {
      file: 'src/generated/operations.ts',
      url: GENERATED_OPERATIONS_URL,
      generate: generateOperationsModule,
    },
    {
      file: 'contracts/target.schema.json',
      url: TARGET_SCHEMA_URL,
      generate: () => generateTargetSchema(),
    },
    {
      file: 'contracts/answers-openapi.yaml',
      url: DEFAULT_DESCRIPTION_URL,
      generate: () => generateDefaultDescriptionFile(),
    },
    {
      file: 'README.md (its table of the keys of a target description)',
      url: README_URL,
      generate: async () => generateReadmeKeys(await readFile(README_URL, 'utf8')),
    },
    {
      file: 'src/generated/openapi-document.ts',
      url: GENERATED_DOCUMENT_URL,
      generate: generateDocumentModule,
    },
    {
      file: 'src/generated/openapi-parts.ts',
      url: GENERATED_PARTS_URL,
      generate: generatePartsModule,
    },
    {
      file: 'src/generated/request-validators.ts',
      url: GENERATED_REQUEST_VALIDATORS_URL,
      generate: async () => (await generateValidatorModules())[0],
    },
    {
      file: 'src/generated/response-validators.ts',
      url: GENERATED_RESPONSE_VALIDATORS_URL,
      generate: async () => (await generateValidatorModules())[1],
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
        `${file} is out of date with its source: run \`npm run generate\` and commit the result`,
      ).toBe(true);
    },
    30_000,
  );
});
