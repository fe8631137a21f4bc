import { readFile, stat } from 'node:fs/promises';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parseDocument } from 'yaml';
import {
  BODY_PLACEHOLDERS,
  DEFAULT_DESCRIPTION,
  OPERATION_ALIASES,
  OPERATION_NAMES,
  PATH_PARAMETERS,
  placeholdersIn,
  takesParts,
  type OperationName,
  type OperationTemplate,
  type TargetDescription,
} from './description.ts';
import schema from '../../../contracts/target.schema.json' with { type: 'json' };
import { nestsDeeperThan } from '../../openapi/json-depth.ts';
import { LIMITS } from '../limits.ts';

/** A target file that cannot be used: exit status 2, with the file, the key path and what was expected. */
export class TargetFileError extends Error {
  override name = 'TargetFileError';
  constructor(file: string, path: string, expected: string) {
    super(`${file}: ${path || '(the whole file)'}: ${expected}`);
  }
}

const validate = new Ajv2020({ allErrors: false, strict: false }).compile(schema);

function describe(error: ErrorObject): { path: string; expected: string } {
  const path = error.instancePath || '';
  if (error.keyword === 'additionalProperties') {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    const parent = path.split('/').filter(Boolean);
    let node: unknown = schema;
    for (const part of parent) {
      node = (node as { properties?: Record<string, unknown> }).properties?.[part];
      if (node && typeof node === 'object' && '$ref' in node) node = undefined;
    }
    const known = Object.keys((node as { properties?: object } | undefined)?.properties ?? {});
    return {
      path: `${path}/${key}`,
      expected: `unknown key "${key}"${known.length ? `; expected one of ${known.join(', ')}` : ''}`,
    };
  }
  // @note A place is one of two shapes: the first branch's error alone ("must be string") would
  // hide the second.
  if (/\/(list\/next|paging\/total(Items|Pages))(\/header)?$/.test(path)) {
    return {
      path: path.replace(/\/header$/, ''),
      expected:
        'expected a JSON Pointer into the body ("/next_cursor") or a header, { header: NAME } ({ header: Link } reads the rel="next" link of an RFC 8288 Link header)',
    };
  }
  // @note An update may be one request or a list of parts: the first branch's error alone would
  // hide the second.
  if (/^\/operations\/[A-Za-z]+$/.test(path) && error.keyword !== 'additionalProperties') {
    const name = path.split('/')[2] as OperationName;
    return {
      path,
      expected:
        OPERATION_NAMES.includes(name) && takesParts(name)
          ? 'expected "METHOD /path-template", e.g. "PATCH /collections/{collection_id}", or a list of parts, [{ request: "PUT /collections/{collection_id}/metadata", body: "{metadata}" }, …]'
          : 'expected "METHOD /path-template", e.g. "GET /v1/collections"',
    };
  }
  if (error.keyword === 'pattern' && error.schemaPath.includes('/operation/')) {
    return { path, expected: 'expected "METHOD /path-template", e.g. "GET /v1/collections"' };
  }
  if (error.keyword === 'pattern' && error.schemaPath.includes('/pointer/')) {
    return {
      path,
      expected: 'expected a JSON Pointer (RFC 6901): "" or "/a/b", "~" only as ~0 or ~1',
    };
  }
  return { path, expected: error.message ?? 'is invalid' };
}

function operationOf(file: string, name: OperationName, value: string): OperationTemplate {
  const [method, path] = value.split(' ', 2) as [string, string];
  const used = [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!);
  const rule = PATH_PARAMETERS[name];
  const where = `/operations/${name}`;
  for (const parameter of used) {
    if (!rule.allowed.includes(parameter)) {
      const allowed = rule.allowed.length ? rule.allowed.map((p) => `{${p}}`).join(', ') : 'none';
      throw new TargetFileError(
        file,
        where,
        `unknown placeholder {${parameter}}; allowed: ${allowed}`,
      );
    }
  }
  for (const parameter of rule.required) {
    if (!used.includes(parameter))
      throw new TargetFileError(file, where, `the path must carry {${parameter}}`);
  }
  if (/[{}]/.test(path.replace(/\{[a-z_]+\}/g, '')))
    throw new TargetFileError(file, where, 'a brace that is not part of a {placeholder}');
  return { method, path };
}

/**
 * An update given as several requests: each part's path as an operation's, its body's
 * placeholders the operation's, each carried by one part alone, and no body of its own beside.
 */
function partsOf(
  file: string,
  name: OperationName,
  parts: ReadonlyArray<{ request: string; body: unknown }>,
  body: unknown,
): OperationTemplate {
  const where = `/operations/${name}`;
  if (!takesParts(name))
    throw new TargetFileError(
      file,
      where,
      'only an update of more than one value may be given in parts; expected "METHOD /path-template"',
    );
  if (body !== undefined)
    throw new TargetFileError(
      file,
      `/bodies/${name}`,
      `${name} is given in parts, each with its body: no bodies.${name} beside them`,
    );
  const carried = new Map<string, number>();
  const out = parts.map(({ request, body: template }, i) => {
    const { method, path } = operationOf(file, name, request);
    checkBody(file, name as keyof typeof BODY_PLACEHOLDERS, template, '', `${where}/${i}/body`);
    const placeholders = placeholdersIn(template);
    if (placeholders.length === 0)
      throw new TargetFileError(
        file,
        `${where}/${i}/body`,
        `a part changes what its body carries: expected one of ${BODY_PLACEHOLDERS[name as keyof typeof BODY_PLACEHOLDERS].join(', ')}`,
      );
    for (const placeholder of placeholders) {
      const other = carried.get(placeholder);
      if (other !== undefined)
        throw new TargetFileError(
          file,
          `${where}/${i}/body`,
          `${placeholder} is already carried by part ${other}: each value is changed by one part`,
        );
      carried.set(placeholder, i);
    }
    return { method, path, body: template };
  });
  return { method: out[0]!.method, path: out[0]!.path, parts: out };
}

/** Every string in a body template that looks like a placeholder must be one the body takes. */
function checkBody(
  file: string,
  name: keyof typeof BODY_PLACEHOLDERS,
  body: unknown,
  at = '',
  root = `/bodies/${name}`,
): void {
  if (typeof body === 'string' && /^\{.*\}$/.test(body)) {
    const allowed: readonly string[] = BODY_PLACEHOLDERS[name];
    if (!allowed.includes(body))
      throw new TargetFileError(
        file,
        `${root}${at}`,
        `unknown placeholder ${body}; allowed: ${allowed.join(', ')}`,
      );
  } else if (Array.isArray(body)) {
    body.forEach((item, i) => checkBody(file, name, item, `${at}/${i}`, root));
  } else if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body))
      checkBody(file, name, value, `${at}/${key}`, root);
  }
}

/** Reads a description from YAML or JSON text; the defaults fill in what it leaves out. */
export function parseTargetDescription(text: string, file: string): TargetDescription {
  const document = parseDocument(text.replace(/^\uFEFF/, ''), { uniqueKeys: true });
  const problem = document.errors[0];
  if (problem) {
    const line = problem.linePos?.[0];
    throw new TargetFileError(
      file,
      line ? `line ${line.line}, column ${line.col}` : '',
      `not valid YAML or JSON: ${problem.message.split('\n')[0]}`,
    );
  }
  let value: Record<string, any>;
  try {
    // @note An alias bomb (a few lines that expand to billions of nodes) stops at the limit.
    value = (document.toJS({ maxAliasCount: LIMITS.maxYamlAliases }) ?? {}) as Record<string, any>;
  } catch (error) {
    throw new TargetFileError(
      file,
      '',
      `not a usable description: ${(error as Error).message.split('\n')[0]} (at most ${LIMITS.maxYamlAliases} aliases)`,
    );
  }
  // @note An alias inside its own anchor makes a value that contains itself: every walk over it
  // (the schema's, the placeholders') recursed until the stack overflowed.
  if (nestsDeeperThan(value, LIMITS.maxDescriptionDepth))
    throw new TargetFileError(
      file,
      '',
      `not a usable description: nests deeper than ${LIMITS.maxDescriptionDepth} levels (an alias inside its own anchor?)`,
    );
  if (!validate(value)) {
    const { path, expected } = describe(validate.errors![0]!);
    throw new TargetFileError(file, path, expected);
  }
  const d = DEFAULT_DESCRIPTION;
  const operations: TargetDescription['operations'] = {};
  if (value.operations) {
    // @note An operation is named as target files always have, or by its operationId in
    // openapi.yaml (`searchObjects` for `search`): one of the two, not both.
    const idOf = Object.fromEntries(
      Object.entries(OPERATION_ALIASES).map(([id, name]) => [name, id]),
    ) as Partial<Record<OperationName, string>>;
    for (const name of OPERATION_NAMES) {
      const id = idOf[name];
      if (
        id !== undefined &&
        value.operations[id] !== undefined &&
        value.operations[name] !== undefined
      )
        throw new TargetFileError(file, `/operations/${id}`, `one of ${name} and ${id}, not both`);
      const template = (value.operations[name] ?? (id && value.operations[id])) as
        string | Array<{ request: string; body: unknown }> | undefined;
      if (typeof template === 'string') operations[name] = operationOf(file, name, template);
      else if (template !== undefined)
        operations[name] = partsOf(file, name, template, value.bodies?.[name]);
    }
  } else {
    Object.assign(operations, d.operations);
  }
  const bodies = { ...d.bodies, ...value.bodies };
  // @note An update in parts carries each part's body with it: our default body is not its.
  for (const [name, template] of Object.entries(operations))
    if (template.parts) delete bodies[name as keyof typeof bodies];
  // @note Our default bodies are for our methods: an operation the file sends as GET or HEAD
  // takes its values in the URL, so a body it does not give itself is not its (a search by query
  // string has no place for a scope unless its path has one).
  for (const name of Object.keys(bodies) as Array<keyof typeof bodies>) {
    const method = operations[name as keyof typeof operations]?.method;
    if ((method === 'GET' || method === 'HEAD') && value.bodies?.[name] === undefined)
      delete bodies[name];
  }
  for (const name of Object.keys(BODY_PLACEHOLDERS) as Array<keyof typeof BODY_PLACEHOLDERS>)
    checkBody(file, name, bodies[name]);
  if (value.search?.hitObject !== undefined && value.search?.hitContent !== undefined)
    throw new TargetFileError(
      file,
      '/search',
      'hitObject (a hit holds the whole object) or hitContent (it holds the content), not both',
    );
  const paging = value.paging ?? {};
  checkPaging(file, '/paging', paging);
  if (value.objectList?.paging) checkPaging(file, '/objectList/paging', value.objectList.paging);
  return {
    source: file,
    operations,
    bodies,
    list: { ...d.list, ...value.list },
    paging: value.paging ? pagingOf(paging) : d.paging,
    collection: { ...d.collection, ...value.collection },
    object: { ...d.object, ...value.object },
    search: { ...d.search, ...value.search },
    limits: { ...d.limits, ...value.limits },
    consistency: { ...d.consistency, ...value.consistency },
    statuses: { ...d.statuses, ...value.statuses },
    // @note A description that says nothing of updates allows each style: the default's are
    // our document's, which a target that wrote its own description need not share.
    updates: { ...value.updates },
    ...(value.objectList
      ? {
          objectList: {
            list: { ...d.list, ...value.objectList.list },
            paging: value.objectList.paging ? pagingOf(value.objectList.paging) : d.paging,
          },
        }
      : {}),
  };
}

/** One way to page, and a number of pages only with numbered pages. */
function checkPaging(file: string, at: string, paging: Record<string, unknown>): void {
  const ways = [
    paging.follow === true && 'follow: true',
    paging.pageToken !== undefined && 'pageToken',
    paging.page !== undefined && 'page',
    paging.offset !== undefined && 'offset',
  ].filter(Boolean);
  if (ways.length > 1)
    throw new TargetFileError(file, at, `one way to page, not ${ways.join(' and ')}`);
  // @note A total of items is read with any way to page (a walk proves it saw that many); a
  // total of pages only means something with numbered pages.
  if (paging.totalPages !== undefined && paging.page === undefined && paging.offset === undefined)
    throw new TargetFileError(file, `${at}/totalPages`, 'only with "page" or "offset" paging');
}

function pagingOf(paging: Record<string, any>): TargetDescription['paging'] {
  return {
    pageSize: paging.pageSize,
    pageToken: paging.pageToken,
    follow: paging.follow === true,
    crossOrigin: paging.crossOrigin,
    page: paging.page,
    firstPage: paging.firstPage,
    offset: paging.offset,
    totalPages: paging.totalPages,
    totalItems: paging.totalItems,
  };
}

/** Reads a target file (`--target`, `ANSWERS_CONTRACT_TARGET`). */
export async function loadTargetFile(file: string): Promise<TargetDescription> {
  let text: string;
  try {
    // @note A description is a page of YAML: a huge file is refused before it is read.
    const { size } = await stat(file);
    if (size > LIMITS.maxDescriptionBytes)
      throw new TargetFileError(
        file,
        '',
        `is ${size} bytes; a target description is at most ${LIMITS.maxDescriptionBytes} bytes`,
      );
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof TargetFileError) throw error;
    throw new TargetFileError(
      file,
      '',
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  return parseTargetDescription(text, file);
}
