import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { document } from './document.ts';

/** The id under which the whole document is registered, so `#/components/...` refs resolve. */
const DOCUMENT_ID = 'https://answers.invalid/openapi.yaml';

// @note ajv-formats is CommonJS; depending on the loader its default import is the plugin or a
// namespace holding it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/**
 * One Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) holding `openapi.yaml`, so every
 * validator in the kit is compiled from the contract itself.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, DOCUMENT_ID);

const compiled = new Map<string, ValidateFunction>();

/** A validator for a JSON pointer into the document, e.g. `#/components/schemas/Collection`. */
export function validatorAt(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.getSchema(`${DOCUMENT_ID}${pointer}`);
    if (!validate) throw new Error(`openapi.yaml has no schema at ${pointer}`);
    compiled.set(pointer, validate);
  }
  return validate;
}

/** A validator for a schema built in code that may `$ref` the document's components. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  return ajv.compile(rebase(schema) as Record<string, unknown>);
}

/** Rewrites local refs (`#/components/...`) to point into the registered document. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof child === 'string' && child.startsWith('#')
          ? DOCUMENT_ID + child
          : rebase(child);
    }
    return out;
  }
  return value;
}
