/**
 * The load of the bench: the request shapes measured, driven by autocannon over many connections,
 * or sent one at a time and timed here.
 */
import autocannon from 'autocannon';
import { DURATION, KEY, QUICK } from './settings.ts';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  key?: boolean;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  unexpected: number;
}

/** Drives one request shape for DURATION seconds after a 1 s warm-up. */
export async function drive(
  url: string,
  scenario: Scenario,
  connections = 16,
  duration = DURATION,
): Promise<Measured> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (scenario.key !== false) headers.authorization = `Bearer ${KEY}`;
  const options = {
    url: `${url}${scenario.path}`,
    method: scenario.method,
    headers,
    body: scenario.body,
    connections,
  };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration });
  const expected = scenario.key === false ? (result['4xx'] ?? result.non2xx) : result['2xx'];
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    unexpected: result.requests.total - expected,
  };
}

/**
 * Latency of one request at a time, timed here (autocannon reports whole milliseconds, too coarse
 * to compare sizes): p50 and p99 in ms over `count` requests after 200 of warm-up.
 */
export async function sequential(
  url: string,
  scenario: Scenario,
  count = QUICK ? 500 : 2_000,
): Promise<{ p50: number; p99: number }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${KEY}`,
  };
  const send = async () => {
    const response = await fetch(`${url}${scenario.path}`, {
      method: scenario.method,
      headers,
      body: scenario.body,
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${scenario.name}: ${response.status}`);
  };
  for (let i = 0; i < 200; i++) await send();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const began = performance.now();
    await send();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(count / 2)]!, p99: times[Math.floor(count * 0.99)]! };
}

export function scenarios(prefix: string, collectionId: string, objectId: string): Scenario[] {
  return [
    { name: 'get a collection', method: 'GET', path: `${prefix}/collections/${collectionId}` },
    { name: 'list a page', method: 'GET', path: `${prefix}/collections?limit=20` },
    {
      name: 'get an object',
      method: 'GET',
      path: `${prefix}/collections/${collectionId}/objects/${objectId}`,
    },
    {
      name: 'search',
      method: 'POST',
      path: `${prefix}/search`,
      body: JSON.stringify({ query: 'billing security' }),
    },
    { name: '401 (no key)', method: 'GET', path: `${prefix}/collections`, key: false },
  ];
}
