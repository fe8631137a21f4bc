import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { renderReferencePage } from './reference-page.ts';

/** A static file as the server sends it. */
export interface StaticFile {
  contentType: string;
  body: Buffer | string;
}

const OPENAPI_URL = new URL('../../openapi.yaml', import.meta.url);

/**
 * How to get Swagger UI at `/docs`, said where it is missing.
 * @note swagger-ui-dist is an optional peer, not a dependency: 12 MB that only `/docs` uses, and
 * it depends on @scarf/scarf, whose install script reports the install to scarf.sh.
 */
const SWAGGER_UI_HINT =
  'For the interactive Swagger UI here instead, install the optional peer swagger-ui-dist@5 in your project (npm install --save-dev swagger-ui-dist@5). It depends on @scarf/scarf, whose install script reports the install to scarf.sh unless SCARF_ANALYTICS=false is set or your package.json has "scarfSettings": { "enabled": false }.';

/** Where the optional peer `swagger-ui-dist` is installed, or undefined when it is not. */
function findSwaggerUi(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}

/** The swagger-ui-dist files the docs page loads, by their name under `/docs/assets/`. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

// @note `openapi.yaml`'s servers default to http://127.0.0.1:4010; "Try it out" is pointed at
// whatever address the page was loaded from instead.
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  requestInterceptor: (request) => {
    request.url = request.url.replace(/^http:\\/\\/127\\.0\\.0\\.1:4010(?=\\/)/, window.location.origin);
    return request;
  },
});
`;

const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Answers API (mock) - reference</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/docs-init.js"></script>
  </body>
</html>
`;

/** Which page `/docs` serves: Swagger UI from the optional peer, or the kit's own page. */
export interface DocsSiteOptions {
  /** The folder of `swagger-ui-dist`; `null`: the kit's own page. Default: found if installed. */
  swaggerUiDir?: string | null;
}

/** One line on what `/docs` serves, for the CLI's banner. */
export function describeDocs(options: DocsSiteOptions = {}): string {
  const dir = options.swaggerUiDir === undefined ? findSwaggerUi() : options.swaggerUiDir;
  return dir
    ? 'Swagger UI (swagger-ui-dist)'
    : 'built-in reference page; npm install --save-dev swagger-ui-dist@5 for Swagger UI';
}

/** Whether `path` is one the docs site may serve: `/openapi.yaml`, `/docs` and below. */
export function isDocsPath(path: string): boolean {
  return path === '/openapi.yaml' || path === '/docs' || path.startsWith('/docs/');
}

/**
 * The API reference: `/openapi.yaml`, and at `/docs` Swagger UI served from the local
 * `swagger-ui-dist` package (no CDN) when the app has installed it, else the kit's own reference
 * page rendered from `openapi.yaml` (no dependency, no script). Returns a lookup from GET path to
 * file.
 */
export function createDocsSite(
  options: DocsSiteOptions = {},
): (path: string) => Promise<StaticFile | undefined> {
  const openapi = readFileSync(OPENAPI_URL);
  const swaggerUi = options.swaggerUiDir === undefined ? findSwaggerUi() : options.swaggerUiDir;
  const cache = new Map<string, Promise<Buffer>>();
  const asset = (dir: string, name: string) => {
    let file = cache.get(name);
    if (!file) cache.set(name, (file = readFile(join(dir, name))));
    return file;
  };
  // @note yaml is loaded on the first request for the page, so importing ./node does not load it.
  let reference: Promise<string> | undefined;
  const referencePage = () =>
    (reference ??= import('yaml').then(({ parse }) =>
      renderReferencePage(
        parse(openapi.toString('utf8')) as Record<string, unknown>,
        `This is the kit's built-in reference, rendered from openapi.yaml. ${SWAGGER_UI_HINT}`,
      ),
    ));
  return async (path) => {
    if (path === '/openapi.yaml') return { contentType: 'application/yaml', body: openapi };
    if (path === '/docs' || path === '/docs/') {
      return {
        contentType: 'text/html; charset=utf-8',
        body: swaggerUi ? DOCS_HTML : await referencePage(),
      };
    }
    if (!swaggerUi) return undefined;
    if (path === '/docs/assets/docs-init.js') {
      return { contentType: 'text/javascript; charset=utf-8', body: DOCS_INIT };
    }
    const name = path.startsWith('/docs/assets/') ? path.slice('/docs/assets/'.length) : '';
    const contentType = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    return contentType ? { contentType, body: await asset(swaggerUi, name) } : undefined;
  };
}
