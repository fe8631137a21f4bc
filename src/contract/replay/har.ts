/**
 * A HAR 1.2 file (browser DevTools, Playwright's `recordHar`) as a recording: each entry that is
 * an operation of the description it was recorded against, keys by role. Its credentials never
 * go further than this file: headers and cookies are not kept, a key's value only names its role.
 */
import { basename } from 'node:path';
import {
  RECORDING_FORMAT,
  type KeyRole,
  type RecordedExchange,
  type Recording,
} from '../../openapi/recording.ts';
import { nestsDeeperThan } from '../../openapi/json-depth.ts';
import { LIMITS } from '../limits.ts';
import { OPERATION_IDS, type TargetDescription } from '../target-api/description.ts';
import { definedQuery, keepDefined, matchRequest } from './match.ts';

/** How a HAR is read: what it talked to, and which role each key it presented has. */
export interface HarReading {
  description: TargetDescription;
  /** The role of a key value (`unknown` for a value none of the run's keys is). */
  roleOf(key: string): KeyRole;
  /** Told each key a request presented: a value never to print (`replay` redacts it). */
  presented?(key: string): void;
}

type Invalid = (path: string, where: string, why: string) => Error;

interface HarHeader {
  name?: unknown;
  value?: unknown;
}

/** The key a request presented, in either header form of the spec (§5.2). */
function presentedKey(headers: unknown): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  for (const header of headers as HarHeader[]) {
    const name = typeof header?.name === 'string' ? header.name.toLowerCase() : '';
    const value = typeof header?.value === 'string' ? header.value.trim() : '';
    if (name === 'x-answers-api-key' && value) return value;
    if (name === 'authorization' && /^bearer\s+\S/i.test(value))
      return value.replace(/^bearer\s+/i, '');
  }
  return undefined;
}

function json(text: unknown, encoding?: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return JSON.parse(encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text);
  } catch {
    return undefined;
  }
}

/** The recording a HAR's `log` makes: a sequence per page (or one, named by the file). */
export function harRecording(
  path: string,
  log: Record<string, unknown>,
  reading: HarReading,
  invalid: Invalid,
): Recording {
  if (!Array.isArray(log.entries)) throw invalid(path, 'log.entries', 'is not a list');
  const file = basename(path);
  const titles = new Map<string, string>();
  if (Array.isArray(log.pages))
    for (const page of log.pages as Array<Record<string, unknown>>)
      if (typeof page?.id === 'string')
        titles.set(page.id, typeof page.title === 'string' && page.title ? page.title : page.id);
  const sequences = new Map<string, RecordedExchange[]>();
  (log.entries as unknown[]).forEach((value, i) => {
    const entry = (value ?? {}) as Record<string, unknown>;
    const request = (entry.request ?? {}) as Record<string, unknown>;
    const response = (entry.response ?? {}) as Record<string, unknown>;
    if (typeof request.method !== 'string' || typeof request.url !== 'string')
      throw invalid(path, `log.entries[${i}].request`, 'has no method or url');
    const status = response.status;
    // @note A request that got no answer (aborted, blocked: status 0) tells nothing to judge.
    if (!Number.isInteger(status) || (status as number) < 100) return;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw invalid(path, `log.entries[${i}].request.url`, 'is not a URL');
    }
    const postData = (request.postData ?? {}) as Record<string, unknown>;
    const body = json(postData.text);
    const method = request.method.toUpperCase();
    const matched = matchRequest(
      reading.description,
      method,
      url.pathname,
      url.search.slice(1),
      body,
    );
    if (!matched) return;
    // @note A parameter the operation does not take is no part of the call: never sent on,
    // never printed (a signed URL's sig, an access_token).
    const query = keepDefined(
      url.search.slice(1),
      definedQuery(reading.description, matched.operation),
    );
    const key = presentedKey(request.headers);
    if (key !== undefined) reading.presented?.(key);
    const role: KeyRole = key === undefined ? 'none' : reading.roleOf(key);
    const content = (response.content ?? {}) as Record<string, unknown>;
    const answer = json(content.text, content.encoding);
    // @note Before anything walks or prints them (the key's replacement below stringifies the
    // exchange): nested a few thousand levels deep, that overflowed the stack.
    for (const [where, value] of [
      ['request.postData.text', body],
      ['response.content.text', answer],
    ] as const)
      if (nestsDeeperThan(value, LIMITS.maxRecordedDepth))
        throw invalid(
          path,
          `log.entries[${i}].${where}`,
          `nests deeper than ${LIMITS.maxRecordedDepth} levels`,
        );
    let exchange: RecordedExchange = {
      operation: OPERATION_IDS[matched.operation],
      method,
      path: url.pathname,
      query,
      key: role,
      ...(body === undefined ? {} : { body }),
      status: status as number,
      ...(answer === undefined ? {} : { response: answer }),
    };
    // @note A key the app echoed in a URL or a body is its role there too.
    if (key !== undefined && JSON.stringify(exchange).includes(key))
      exchange = JSON.parse(
        JSON.stringify(exchange).replaceAll(key, `<${role} key>`),
      ) as RecordedExchange;
    const page = typeof entry.pageref === 'string' ? entry.pageref : undefined;
    const name = page === undefined ? file : `${file} > ${titles.get(page) ?? page}`;
    if (!sequences.has(name)) sequences.set(name, []);
    sequences.get(name)!.push(exchange);
  });
  return {
    format: RECORDING_FORMAT,
    sequences: [...sequences].map(([name, exchanges]) => ({ name, exchanges })),
  };
}
