/**
 * A target that mangles one character far into a long text, as a server that splits a multi-byte
 * character at a chunk boundary does: the mock behind a loopback proxy that, in the answers to a
 * get of an object, replaces code point `MANGLED_AT` of every longer string with U+FFFD.
 */
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';
import { startProxy } from './proxy.ts';

/** The code point the target mangles, in every string longer than it of an object it answers. */
export const MANGLED_AT = 5000;

/** Every string of `value` longer than MANGLED_AT code points, with that code point replaced. */
function mangled(value: unknown): unknown {
  if (typeof value === 'string') {
    const points = Array.from(value);
    if (points.length <= MANGLED_AT) return value;
    points[MANGLED_AT] = '\uFFFD';
    return points.join('');
  }
  if (Array.isArray(value)) return value.map(mangled);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, mangled(each)]));
  return value;
}

/**
 * Starts the mock and the proxy in front of it. `when(object)` says whether an object's answer
 * that holds a long text is mangled: every one by default.
 */
export async function startManglingTarget(
  when: (object: unknown) => boolean = () => true,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = await startServer({ mock: await createMock(), port: 0, quiet: true });
  const proxy = await startProxy(server.url, {
    after: (request, _status, json) => {
      if (request.method !== 'GET' || !/\/collections\/[^/]+\/objects\/[^/?]+$/.test(request.url))
        return json;
      return when(json) ? mangled(json) : json;
    },
  });
  return {
    baseUrl: `${proxy.url}/api/answers/v1`,
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}
