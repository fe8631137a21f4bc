import type { StandardSchemaV1 } from '@standard-schema/spec';
import { compileSchema } from './ajv.ts';

/**
 * Exposes an Ajv validator compiled from a JSON Schema (that may `$ref` `openapi.yaml`) through
 * the Standard Schema interface that `@msw/data` collections take, so the store's record shapes
 * come from the contract instead of a hand-written copy.
 * @see https://standardschema.dev/
 */
export function standardSchema<T>(schema: Record<string, unknown>): StandardSchemaV1<T, T> {
  const validate = compileSchema(schema);
  return {
    '~standard': {
      version: 1,
      vendor: 'answers-mock-kit',
      validate(value) {
        if (validate(value)) return { value: value as T };
        return {
          issues: (validate.errors ?? []).map((error) => ({
            message: `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
          })),
        };
      },
    },
  };
}
