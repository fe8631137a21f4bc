import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const document = parse(await readFile(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
const gaps = await readFile(new URL('../../docs/spec-gaps.md', import.meta.url), 'utf8');
/** Every id defined in docs/spec-gaps.md: the first cell of a table row. */
const DEFINED_IDS = new Set([...gaps.matchAll(/^\|\s*`([A-Z0-9-]+)`\s*\|/gm)].map((m) => m[1]));
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

type Node = Record<string, any>;
const resolve = (node: Node): Node =>
  node.$ref
    ? resolve(
        node.$ref
          .slice(2)
          .split('/')
          .reduce((n: Node, k: string) => n[k], document),
      )
    : node;

/** Every element that must carry a marker, with a name for the failure message. */
function elements(): Array<{ where: string; node: Node; needsExample: boolean }> {
  const out: Array<{ where: string; node: Node; needsExample: boolean }> = [];
  for (const [name, schema] of Object.entries<Node>(document.components.schemas)) {
    out.push({ where: `schema ${name}`, node: schema, needsExample: true });
    for (const [prop, value] of Object.entries<Node>(schema.properties ?? {})) {
      if (!value.$ref)
        out.push({ where: `schema ${name}.${prop}`, node: value, needsExample: false });
    }
  }
  for (const [name, parameter] of Object.entries<Node>(document.components.parameters)) {
    out.push({ where: `parameter ${name}`, node: parameter, needsExample: true });
  }
  for (const [name, response] of Object.entries<Node>(document.components.responses)) {
    out.push({ where: `response ${name}`, node: response, needsExample: false });
  }
  for (const [path, item] of Object.entries<Node>(document.paths)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const operation = item[method];
      out.push({ where: `${method.toUpperCase()} ${path}`, node: operation, needsExample: false });
      for (const [status, response] of Object.entries<Node>(operation.responses)) {
        if (!response.$ref)
          out.push({
            where: `${method.toUpperCase()} ${path} ${status}`,
            node: response,
            needsExample: false,
          });
      }
    }
  }
  return out;
}

function hasExample(node: Node): boolean {
  return (
    node.example !== undefined ||
    (Array.isArray(node.examples) && node.examples.length > 0) ||
    node.examples !== undefined
  );
}

describe('openapi.yaml markers', () => {
  it('marks every operation, parameter, schema, property and response as stated or assumed, citing a defined id', () => {
    const problems: string[] = [];
    for (const { where, node } of elements()) {
      const status = node['x-spec-status'];
      const ids: string[] = String(node[status === 'stated' ? 'x-spec-clause' : 'x-spec-gap'] ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      if (status !== 'stated' && status !== 'assumed')
        problems.push(`${where}: x-spec-status is ${status}`);
      else if (ids.length === 0) problems.push(`${where}: ${status} without an id`);
      for (const id of ids)
        if (!DEFINED_IDS.has(id))
          problems.push(`${where}: cites ${id}, not defined in docs/spec-gaps.md`);
    }
    expect(problems).toEqual([]);
  });

  it('gives every schema and parameter an example, and every operation request and response body examples', () => {
    const problems: string[] = [];
    for (const { where, node, needsExample } of elements()) {
      // @note x-example-omitted: a value no example can stand for (a signed cursor), said why.
      if (needsExample && !hasExample(node) && !node['x-example-omitted'])
        problems.push(`${where}: no example`);
    }
    for (const [path, item] of Object.entries<Node>(document.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const operation = item[method];
        const bodies = [
          ...(operation.requestBody ? [['request', resolve(operation.requestBody)]] : []),
          ...Object.entries<Node>(operation.responses).map(([status, r]) => [status, resolve(r)]),
        ] as Array<[string, Node]>;
        for (const [which, body] of bodies) {
          for (const [type, media] of Object.entries<Node>(body.content ?? {})) {
            if (!hasExample(media))
              problems.push(`${method.toUpperCase()} ${path} ${which} ${type}: no example`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('defines every "not shown" item of the spec in docs/spec-gaps.md', async () => {
    const spec = await readFile(
      new URL('../../../shared/spec/answers-service-spec.md', import.meta.url),
      'utf8',
    ).catch(() => undefined);
    const notShown = spec ? [...spec.matchAll(/not shown/gi)].length : 0;
    const gapRows =
      gaps
        .split('## 2.')[1]!
        .split('Further decisions')[0]!
        .match(/^\|\s*`GAP-/gm) ?? [];
    // The spec's lines name several items each ("Method, path, request payload and response payload: not shown").
    expect(gapRows.length).toBeGreaterThanOrEqual(notShown);
    expect(gapRows).toHaveLength(27);
  });
});
