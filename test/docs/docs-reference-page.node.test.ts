/**
 * `/docs` without the optional peer swagger-ui-dist: the kit's own reference page, rendered from
 * `openapi.yaml`, self-contained (nothing fetched, no script), naming every operation and schema
 * and saying how to get Swagger UI instead.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createDocsSite, describeDocs } from '../../src/node/docs-site.ts';

const document = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components: { schemas: Record<string, unknown> };
};
const OPERATION_IDS = Object.values(document.paths).flatMap((item) =>
  Object.values(item).flatMap((operation) => operation?.operationId ?? []),
);

describe('the built-in reference page (swagger-ui-dist not installed)', () => {
  const site = createDocsSite({ swaggerUiDir: null });

  it('serves /docs as one HTML page with a section per operation and per schema', async () => {
    const page = await site('/docs');
    expect(page?.contentType).toBe('text/html; charset=utf-8');
    const html = String(page!.body);
    expect(OPERATION_IDS).toHaveLength(12);
    for (const id of OPERATION_IDS) expect(html, id).toContain(`<section class="op" id="${id}">`);
    for (const name of Object.keys(document.components.schemas)) {
      expect(html, name).toContain(`<section id="schema-${name}">`);
    }
    expect(html).toContain('<code>/collections/{collection_id}/objects</code>');
    expect(await site('/docs/')).toEqual(page);
  });

  it('loads nothing: no script, no style sheet, every link inside the page or to /openapi.yaml', async () => {
    const html = String((await site('/docs'))!.body);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=/i);
    const ids = new Set([...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));
    const links = [...html.matchAll(/\bhref="([^"]*)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(OPERATION_IDS.length);
    for (const link of links) {
      if (link === '/openapi.yaml') continue;
      expect(link.startsWith('#') && ids.has(link.slice(1)), link).toBe(true);
    }
  });

  it('says what it is and how to get Swagger UI, install analytics included', async () => {
    const html = String((await site('/docs'))!.body);
    expect(html).toContain('npm install --save-dev swagger-ui-dist@5');
    expect(html).toContain('SCARF_ANALYTICS=false');
    expect(describeDocs({ swaggerUiDir: null })).toBe(
      'built-in reference page; npm install --save-dev swagger-ui-dist@5 for Swagger UI',
    );
  });

  it('serves none of the Swagger UI assets', async () => {
    expect(await site('/docs/assets/swagger-ui-bundle.js')).toBeUndefined();
    expect(await site('/docs/assets/docs-init.js')).toBeUndefined();
    expect((await site('/openapi.yaml'))?.contentType).toBe('application/yaml');
  });
});

describe('with swagger-ui-dist installed (a devDependency here)', () => {
  it('serves Swagger UI from its files', async () => {
    const site = createDocsSite();
    expect(String((await site('/docs'))!.body)).toContain('/docs/assets/swagger-ui-bundle.js');
    expect((await site('/docs/assets/swagger-ui.css'))?.contentType).toContain('text/css');
    expect(describeDocs()).toBe('Swagger UI (swagger-ui-dist)');
  });
});
