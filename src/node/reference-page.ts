/**
 * The kit's own API reference page: one self-contained HTML page rendered from `openapi.yaml`
 * (no script, no style sheet or font from elsewhere), served at `/docs` when the optional
 * `swagger-ui-dist` is not installed.
 */

type Node = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1b1f24}
code,pre{font:13px/1.45 ui-monospace,monospace;background:#f3f4f6;border-radius:4px}
code{padding:0 .25em}pre{padding:.75em;overflow:auto}
.note{border-left:4px solid #2f6feb;background:#eef4ff;padding:.5em 1em}
.op{border-top:1px solid #d0d7de;margin-top:1.5em}
.method{display:inline-block;min-width:4.5em;font-weight:700;text-transform:uppercase}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}`;

/** Text made safe for HTML content and attribute values. */
function html(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inline code of the document's Markdown, the rest as text. */
function inline(text: string): string {
  return html(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/**
 * The little Markdown the document's descriptions use: paragraphs, `## ` headings, `- ` lists
 * and inline code; everything else is shown as written.
 */
function prose(markdown: unknown): string {
  return String(markdown ?? '')
    .trim()
    .split(/\n\s*\n/)
    .filter(Boolean)
    .map((block) => {
      const heading = /^#{1,6} (.*)$/.exec(block);
      if (heading) return `<h3>${inline(heading[1]!)}</h3>`;
      if (/^- /.test(block)) {
        const items = block.split(/\n(?=- )/).map((item) => `<li>${inline(item.slice(2))}</li>`);
        return `<ul>${items.join('')}</ul>`;
      }
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

/** The anchor of a `#/components/...` reference, e.g. `schema-Collection`. */
function anchor(ref: string): string {
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
  return kind === 'schemas' ? `schema-${name}` : `${kind}-${name}`;
}

/** A schema as pretty JSON, each `$ref` to a component schema a link to it. */
function schemaBlock(schema: unknown): string {
  return `<pre>${html(JSON.stringify(schema, null, 2)).replace(
    /&#34;(#\/components\/schemas\/[\w.-]+)&#34;/g,
    (_, ref: string) => `&#34;<a href="#${anchor(ref)}">${ref}</a>&#34;`,
  )}</pre>`;
}

/** Follows a local `$ref` in the document. */
function resolve(document: Node, value: unknown): Node {
  let node = value as Node;
  for (let hops = 0; typeof node?.$ref === 'string' && hops < 10; hops++) {
    let target: unknown = document;
    for (const part of (node.$ref as string).replace(/^#\//, '').split('/')) {
      target = (target as Node | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    node = target as Node;
  }
  return node ?? {};
}

function parameterRows(document: Node, parameters: unknown[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((value) => {
    const p = resolve(document, value);
    const schema = resolve(document, p.schema);
    const type = [schema.type, schema.format].filter(Boolean).join(', ');
    return `<tr><td><code>${html(p.name)}</code></td><td>${html(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${html(type)}</td><td>${prose(p.description)}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>type</th><th>description</th></tr>${rows.join('')}</table>`;
}

function operationSection(
  document: Node,
  path: string,
  method: string,
  operation: Node,
  shared: unknown[],
): string {
  const id = String(operation.operationId ?? `${method}-${path}`);
  const body = resolve(document, operation.requestBody);
  const bodyContent = Object.entries((body.content as Node | undefined) ?? {}).map(
    ([type, media]) =>
      `<p><code>${html(type)}</code>${body.required ? ' (required)' : ''}</p>${schemaBlock((media as Node).schema)}`,
  );
  const responses = Object.entries((operation.responses as Node | undefined) ?? {}).map(
    ([status, value]) => {
      const response = resolve(document, value);
      const media = Object.entries((response.content as Node | undefined) ?? {});
      const schemas = media.map(([type, m]) => {
        const ref = ((m as Node).schema as Node | undefined)?.$ref;
        return typeof ref === 'string'
          ? `<code>${html(type)}</code> <a href="#${anchor(ref)}">${html(ref.split('/').pop())}</a>`
          : `<code>${html(type)}</code>`;
      });
      return `<tr><td>${html(status)}</td><td>${prose(response.description)}</td><td>${schemas.join('<br>')}</td></tr>`;
    },
  );
  return `<section class="op" id="${html(id)}">
<h3><span class="method">${html(method)}</span> <code>${html(path)}</code></h3>
<p><strong>${html(operation.summary)}</strong> (<code>${html(id)}</code>${operation['x-permission'] ? `, permission <code>${html(operation['x-permission'])}</code>` : ''})</p>
${prose(operation.description)}
${parameterRows(document, [...shared, ...((operation.parameters as unknown[] | undefined) ?? [])])}
${bodyContent.length > 0 ? `<h4>Request body</h4>${bodyContent.join('\n')}` : ''}
<h4>Responses</h4><table><tr><th>status</th><th>description</th><th>body</th></tr>${responses.join('')}</table>
</section>`;
}

/**
 * The whole reference: the document's introduction, `note` (what the page is and how to get
 * Swagger UI instead), a table of contents by tag, every operation and every component schema.
 */
export function renderReferencePage(document: Node, note: string): string {
  const info = (document.info as Node | undefined) ?? {};
  const operations: Array<{ tag: string; id: string; method: string; path: string; html: string }> =
    [];
  for (const [path, item] of Object.entries(
    (document.paths as Record<string, Node> | undefined) ?? {},
  )) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      operations.push({
        tag: String((operation.tags as string[] | undefined)?.[0] ?? 'Other'),
        id: String(operation.operationId ?? `${method}-${path}`),
        method,
        path,
        html: operationSection(document, path, method, operation, shared),
      });
    }
  }
  const tags = [...new Set(operations.map((operation) => operation.tag))];
  const contents = tags.map((tag) => {
    const links = operations
      .filter((operation) => operation.tag === tag)
      .map(
        (o) =>
          `<li><a href="#${html(o.id)}"><span class="method">${o.method}</span> ${html(o.path)}</a></li>`,
      );
    return `<li>${html(tag)}<ul>${links.join('')}</ul></li>`;
  });
  const schemas = Object.entries(
    ((document.components as Node | undefined)?.schemas as Node | undefined) ?? {},
  ).map(
    ([name, schema]) =>
      `<section id="schema-${html(name)}"><h3>${html(name)}</h3>${schemaBlock(schema)}</section>`,
  );
  const servers = ((document.servers as Node[] | undefined) ?? []).map(
    (server) =>
      `<li><code>${html(server.url)}</code> ${inline(String(server.description ?? ''))}</li>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${html(info.title)} (mock) - reference</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${html(info.title)} <small>${html(info.version)}</small></h1>
<p class="note">${note}</p>
<p>The contract itself: <a href="/openapi.yaml">/openapi.yaml</a>.</p>
${prose(info.description)}
<h2>Servers</h2><ul>${servers.join('')}</ul>
<h2>Operations</h2><ul>${contents.join('')}</ul>
${tags
  .map(
    (tag) =>
      `<h2>${html(tag)}</h2>\n${operations
        .filter((o) => o.tag === tag)
        .map((o) => o.html)
        .join('\n')}`,
  )
  .join('\n')}
<h2>Schemas</h2>
${schemas.join('\n')}
</body>
</html>
`;
}
