import { openapiDocument } from '../generated/openapi-document.ts';

/** The parts of an OpenAPI 3.1 document that the core reads. */
export interface OpenApiDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    parameters: Record<string, Record<string, unknown>>;
    responses: Record<string, Record<string, unknown>>;
  };
}

/**
 * `openapi.yaml`, as data. The generator turns the YAML into a module so that the core needs no
 * file system and runs unchanged in browsers; a test keeps the module in step with the YAML.
 */
export const document = openapiDocument as unknown as OpenApiDocument;

/** Resolves a local `$ref` (`#/components/...`) against the document; other values pass through. */
export function resolveRef<T>(value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    let node: unknown = document;
    for (const part of value.$ref.replace(/^#\//, '').split('/')) {
      node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    return resolveRef(node as T);
  }
  return value as T;
}
