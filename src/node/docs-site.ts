import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A static file as the server sends it. */
export interface StaticFile {
  contentType: string;
  body: Buffer | string;
}

const OPENAPI_URL = new URL('../../openapi.yaml', import.meta.url);
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

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

/**
 * The interactive API reference: `/openapi.yaml`, and at `/docs` a Swagger UI page served from
 * the local `swagger-ui-dist` package (no CDN). Returns a lookup from GET path to file.
 */
export function createDocsSite(): (path: string) => Promise<StaticFile | undefined> {
  const openapi = readFileSync(OPENAPI_URL);
  const cache = new Map<string, Promise<Buffer>>();
  const asset = (name: string) => {
    let file = cache.get(name);
    if (!file) cache.set(name, (file = readFile(join(SWAGGER_DIR, name))));
    return file;
  };
  return async (path) => {
    if (path === '/openapi.yaml') return { contentType: 'application/yaml', body: openapi };
    if (path === '/docs' || path === '/docs/') {
      return { contentType: 'text/html; charset=utf-8', body: DOCS_HTML };
    }
    if (path === '/docs/assets/docs-init.js') {
      return { contentType: 'text/javascript; charset=utf-8', body: DOCS_INIT };
    }
    const name = path.startsWith('/docs/assets/') ? path.slice('/docs/assets/'.length) : '';
    const contentType = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    return contentType ? { contentType, body: await asset(name) } : undefined;
  };
}
