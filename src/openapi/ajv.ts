import type { ValidateFunction } from 'ajv';
import { BODY_VALIDATORS, SCHEMA_VALIDATORS } from '../generated/request-validators.ts';

/**
 * The validators the mock runs, compiled ahead of time from `openapi.yaml` by
 * `scripts/generate-validators.ts` (Ajv's standalone code: JSON Schema 2020-12 with formats, all
 * errors): nothing compiles a schema as the mock starts, and a browser bundle carries no JSON
 * Schema compiler. Response validation has its own table (`response-validation.ts`).
 */
const bodies = BODY_VALIDATORS as unknown as Record<string, ValidateFunction | undefined>;
const schemas = SCHEMA_VALIDATORS as unknown as Record<string, ValidateFunction | undefined>;

/** Every schema given to {@link compileSchema} in this process, by its JSON: what the generator precompiles. */
export const requestedSchemas = new Map<string, Record<string, unknown>>();

/** A validator for the request body schema at a JSON pointer, e.g. `#/components/schemas/ObjectWrite`. */
export function validatorAt(pointer: string): ValidateFunction {
  const validate = bodies[pointer];
  if (!validate) throw new Error(`openapi.yaml has no request body schema at ${pointer}`);
  return validate;
}

/**
 * The validator of a schema built in code (it may `$ref` the document's components), found by the
 * schema's JSON among those compiled ahead of time.
 * @note A schema changed without `npm run generate` has none: its validator throws when called,
 * saying so (and `test/code/generated-types.node.test.ts` fails), rather than stopping every import.
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  requestedSchemas.set(key, schema);
  return schemas[key] ?? notPrecompiled(key);
}

function notPrecompiled(key: string): ValidateFunction {
  return (() => {
    throw new Error(
      `No validator was generated for the schema ${key.slice(0, 200)}: run \`npm run generate\``,
    );
  }) as unknown as ValidateFunction;
}

/**
 * One line for the first error of a schema check: where, and what. An unknown field is named
 * (Ajv says only "must NOT have additional properties").
 */
export function schemaErrorLine(
  error:
    { instancePath?: string; message?: string; keyword?: string; params?: unknown } | undefined,
  at = '',
): string {
  const where = `${at}${error?.instancePath ?? ''}` || '/';
  const extra = (error?.params as { additionalProperty?: unknown } | undefined)?.additionalProperty;
  if (error?.keyword === 'additionalProperties' && typeof extra === 'string')
    return `${where} has an unknown field "${extra}"`;
  return `${where} ${error?.message ?? 'is invalid'}`;
}
