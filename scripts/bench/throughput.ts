/**
 * Throughput, 16 keep-alive connections on loopback, in one run: the mock against a bare
 * node:http server answering the same bytes precomputed, json-server 1.x and an express 5
 * `res.json` stub serving the same records, and Prism's mock of the same openapi.yaml. Servers
 * are pinned to one core and the load generator to the other where the machine allows. Rounds
 * are interleaved (every server, then again) and each figure is the median over rounds of its
 * ratio to the bare server of the same round, so drift of the machine cancels out. Most shapes ask
 * one target over and over, which the mock answers from its cache of repeated reads; the rotation
 * asks more collections in turn than that cache keeps, for the mock's uncached path.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundled } from './bundled.ts';
import { startLoadGenerator, type LoadDriver, type LoadResult } from './load-driver.ts';
import { PINNING, start, stop, type Started } from './processes.ts';
import {
  giveCollections,
  recordAnswers,
  requestBytes,
  ROTATION,
  SHAPE_NAMES,
  shapes,
  type Shape,
} from './recorded-answers.ts';
import { JSON_SERVER, MOCKS_FROM, PRISM, QUICK, SHAPES } from './settings.ts';
import { fmt, table } from './tables.ts';

const ROUNDS = QUICK ? 2 : 5;
const MEASURE_MS = QUICK ? 1_000 : 3_000;
const WARMUP_MS = 500;
const CONNECTIONS = 16;
const SERVER_CORE = 0;

type ServerId = 'bare' | 'mock' | 'json-server' | 'express' | 'prism' | `mock@${string}`;

interface Server {
  id: ServerId;
  label: string;
  process: Started;
  /**
   * The targets this server answers `shape` at, asked in rotation, or undefined when it has no
   * such request.
   */
  targets(shape: Shape): readonly string[] | undefined;
}

const LABELS = {
  bare: 'bare node:http (same bytes)',
  mock: 'answers mock',
  'json-server': 'json-server 1.0.0-beta.3',
  express: 'express 5 res.json stub',
  prism: 'Prism 5 mock',
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const onServerCore = { core: SERVER_CORE };

async function drive(
  generator: LoadDriver,
  server: Server,
  shape: Shape,
  measureMs: number,
): Promise<LoadResult> {
  const targets = server.targets(shape)!;
  const port = Number(new URL(server.process.url).port);
  // @note Prism answers its examples, not the mock's data: what counts is that it answers.
  const status =
    server.id === 'prism' ? (shape.key ? 200 : 401) : shape.name === 'refused' ? 401 : 200;
  return generator.run({
    port,
    requests: targets.map((target) => requestBytes(shape, target, port)),
    status,
    connections: CONNECTIONS,
    warmupMs: WARMUP_MS,
    durationMs: measureMs,
    maxRequests: 2_000_000,
    serverPid: server.process.child.pid ?? 0,
  });
}

/** What {@link throughput} measures besides the mock and the bare server. */
export interface ThroughputOptions {
  /** json-server, the express stub and Prism. Default true. */
  baselines?: boolean;
  /**
   * Other checkouts of the kit (with node_modules) whose mock runs beside this one, each a row
   * of its own (`--mock-from <dir>`): a change measured against the code before it, in one run.
   */
  mocksFrom?: readonly string[];
  /** The request shapes to measure, by name. Default all, or those of `--shape`. */
  only?: readonly Shape['name'][];
}

/** The names of `--shape`, checked: a misspelt one must not measure nothing without a word. */
function shapeNames(names: readonly string[]): Shape['name'][] {
  const unknown = names.filter((name) => !(SHAPE_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`no request shape named ${unknown.join(', ')} (${SHAPE_NAMES.join(', ')})`);
  }
  return names as Shape['name'][];
}

export async function throughput(options: ThroughputOptions = {}): Promise<string> {
  const { baselines = true, mocksFrom = MOCKS_FROM } = options;
  const only = options.only ?? (SHAPES.length > 0 ? shapeNames(SHAPES) : undefined);
  const started: Started[] = [];
  let folder: string | undefined;
  const generator = startLoadGenerator();
  // @note Everything after the generator's start is in the try, set-up too: a failure anywhere
  // must still stop every process started.
  try {
    // @note The mock runs from a bundle, as the bin users start does (see bundled.ts).
    const mockProcess = await start(
      ['--expose-gc', await bundled(here('mock-server.ts'))],
      600_000,
      onServerCore,
    );
    started.push(mockProcess);
    const figures = JSON.parse(mockProcess.lines.find((line) => line.startsWith('{'))!);
    const collectionIds = await giveCollections(mockProcess.url);
    const list = shapes(figures.collectionId, figures.objectId, collectionIds).filter(
      (shape) => only === undefined || only.includes(shape.name),
    );
    ({ folder } = await recordAnswers(mockProcess.url, list));
    const answers = join(folder, 'answers.json');
    const launch = async (args: string[], extra = {}) => {
      const process_ = await start(args, 120_000, { ...onServerCore, ...extra });
      started.push(process_);
      return process_;
    };
    const bare = await launch([await bundled(here('bare-server-run.ts')), answers]);
    const servers: Server[] = [
      { id: 'bare', label: LABELS.bare, process: bare, targets: (s) => s.targets },
      { id: 'mock', label: LABELS.mock, process: mockProcess, targets: (s) => s.targets },
    ];
    // @note The same mock without its request journal: what the journal costs, in the same run
    // (the column "answers mock ÷ this" of its row).
    const journalOff = await launch([
      '--expose-gc',
      await bundled(here('mock-server.ts')),
      '--journal-size',
      '0',
    ]);
    await giveCollections(journalOff.url);
    servers.push({
      id: 'mock@journal-off',
      label: 'answers mock, journal off (journalSize 0)',
      process: journalOff,
      targets: (s) => s.targets,
    });
    for (const checkout of mocksFrom) {
      const other = await launch([
        '--expose-gc',
        await bundled(join(checkout, 'scripts/bench/mock-server.ts')),
      ]);
      // @note Given its collections the same way, it holds the same ids as this mock.
      await giveCollections(other.url);
      const commit = String(
        spawnSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD']).stdout ?? '',
      ).trim();
      const id = `mock@${commit || basename(checkout)}` as const;
      servers.push({
        id,
        label: `answers mock at ${id.slice(5)}`,
        process: other,
        targets: (s) => s.targets,
      });
    }
    let prismServer: Server | undefined;
    if (baselines) {
      const express = await launch([await bundled(here('express-stub-run.ts')), answers]);
      const jsonServer = await launch(
        [JSON_SERVER, 'db.json', '--host', '127.0.0.1', '--port', '4097'],
        {
          cwd: folder,
          ready: (line: string) =>
            /started on PORT :4097/.test(line) ? 'http://127.0.0.1:4097' : undefined,
        },
      );
      const prism = await launch([
        PRISM,
        'mock',
        'openapi.yaml',
        '--host',
        '127.0.0.1',
        '--port',
        '4099',
      ]);
      servers.push(
        {
          id: 'json-server',
          label: LABELS['json-server'],
          process: jsonServer,
          targets: (s) => s.jsonServer,
        },
        {
          id: 'express',
          label: LABELS.express,
          process: express,
          targets: (s) =>
            ['one', 'page', 'refused', 'rotation'].includes(s.name) ? s.targets : undefined,
        },
      );
      prismServer = {
        id: 'prism',
        label: LABELS.prism,
        process: prism,
        targets: (s) => (s.prism === undefined ? undefined : [s.prism]),
      };
    }

    // @note Round 0 warms every server's JIT and is not counted.
    const results = new Map<string, LoadResult[]>();
    for (let round = 0; round <= ROUNDS; round++) {
      for (const shape of list) {
        const here_ = servers.filter((server) => server.targets(shape) !== undefined);
        // @note The order turns each round, so no server always runs right after another.
        const order = here_.map((_, i) => here_[(i + round) % here_.length]!);
        for (const server of order) {
          const result = await drive(generator, server, shape, round === 0 ? 1_000 : MEASURE_MS);
          if (round === 0) continue;
          const key = `${shape.name} ${server.id}`;
          results.set(key, [...(results.get(key) ?? []), result]);
        }
      }
    }
    for (const shape of list) {
      if (!prismServer || !shape.prism) continue;
      results.set(`${shape.name} prism`, [await drive(generator, prismServer, shape, MEASURE_MS)]);
    }
    return report(list, prismServer ? [...servers, prismServer] : servers, results);
  } finally {
    generator.stop();
    await Promise.all(started.map(stop));
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  }
}

const rps = (r: LoadResult) => r.requests / r.seconds;
const cpuPerRequest = (r: LoadResult) => (r.serverCpuUs < 0 ? NaN : r.serverCpuUs / r.requests);

function report(list: Shape[], servers: Server[], results: Map<string, LoadResult[]>): string {
  const rows: string[][] = [
    [
      'request',
      'server',
      'req/s',
      'req/s vs bare (range)',
      'CPU µs/req',
      'p50 µs',
      'p99 µs',
      'p99 vs bare',
      'mock ÷ this, req/s',
      'bytes/answer',
      'errors',
    ],
  ];
  let generatorShare = 0;
  for (const shape of list) {
    const bare = results.get(`${shape.name} bare`)!;
    const mock = results.get(`${shape.name} mock`)!;
    for (const server of servers) {
      const runs = results.get(`${shape.name} ${server.id}`);
      if (!runs) continue;
      // @note Ratios are taken round by round (a server against the bare run of its own round),
      // then the median; Prism ran once and is compared with the bare median.
      const paired = runs.length === bare.length;
      const ratios = (of: (r: LoadResult) => number, to: LoadResult[]) =>
        runs.map((r, i) => of(r) / (paired ? of(to[i]!) : median(to.map(of))));
      const vsBare = ratios(rps, bare);
      const p99VsBare = ratios((r) => r.latencyUs.p99, bare);
      const mockOverThis = runs.map(
        (r, i) => (paired ? rps(mock[i]!) : median(mock.map(rps))) / rps(r),
      );
      if (server.id === 'bare') {
        generatorShare = Math.max(
          generatorShare,
          median(runs.map((r) => r.generatorCpuUs / (r.seconds * 1e6))),
        );
      }
      rows.push([
        shape.title,
        server.label,
        fmt(median(runs.map(rps))),
        `${fmt(median(vsBare), 2)} (${fmt(Math.min(...vsBare), 2)}–${fmt(Math.max(...vsBare), 2)})`,
        fmt(median(runs.map(cpuPerRequest)), 1),
        fmt(median(runs.map((r) => r.latencyUs.p50))),
        fmt(median(runs.map((r) => r.latencyUs.p99))),
        fmt(median(p99VsBare), 2),
        server.id === 'mock' ? '' : fmt(median(mockOverThis), 2),
        fmt(runs[0]!.responseBytes),
        fmt(runs.reduce((sum, r) => sum + r.errors + r.unexpected, 0)),
      ]);
    }
  }
  const notes = [
    `${CONNECTIONS} keep-alive connections from a load generator of raw sockets in its own process, each request timed with performance.now(); ${ROUNDS} interleaved rounds of ${MEASURE_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up (plus an uncounted warm-up round); medians over rounds, ratios taken against the bare run of the same round (range: lowest–highest round). Prism ran once per request.`,
    'The mock, the bare server and the express stub each run from a bundle of their script made as the bin is (Vite, `scripts/bench/bundled.ts`), as users run the mock: not through tsx, whose transform wraps every closure in a naming call.',
    `Placement: ${PINNING.ok ? PINNING.why : `not pinned (${PINNING.why}): servers and load generator share the cores`}. CPU µs/req is the server process's own user + system time (/proc/<pid>/stat, every thread) over the measured window, divided by the requests answered.`,
    `The bare server answers the mock's own status, header fields and body bytes for each request, precomputed, with Content-Length framing. json-server serves the same collections from its db.json (all the caller's ${fmt(ROTATION)}, as the mock holds them; its own routes, \`/collections/:id\` and \`?_limit=10\`, pretty-printed JSON, no key check, so no 401 row); the express stub answers \`res.json\` of the same records after checking a key is present. The load generator used ${fmt(generatorShare * 100)}% of its core against the bare server${generatorShare > 0.9 ? ' (saturated: the bare figure is bounded by the generator, so every ratio is flattered)' : ''}.`,
    `The rotation asks the caller's ${fmt(ROTATION)} collections in turn, the run's i-th request (over all connections) the (i mod ${fmt(ROTATION)})-th collection: more targets than the mock's cache of repeated reads keeps, so the mock computes every answer, where each other shape is one target asked again and again. The bare server replays the mock's answer to each target, json-server and the express stub look each one up among the same records; Prism is left out (its examples hold one collection). Bytes/answer is the last answer's.`,
  ];
  return `${table(rows)}\n\n${notes.join('\n\n')}`;
}
