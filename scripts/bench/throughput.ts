/**
 * Throughput, 16 connections on loopback: the mock against a bare node:http server answering
 * 1 KB of JSON and against Prism's mock of the same openapi.yaml, measured in the same run.
 */
import { fileURLToPath } from 'node:url';
import { drive, scenarios, type Measured } from './load.ts';
import { start, stop } from './processes.ts';
import { PRISM, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

export async function throughput(): Promise<string> {
  const bare = await start([
    '--import',
    TSX,
    fileURLToPath(new URL('bare-server.ts', import.meta.url)),
  ]);
  const mock = await start([
    '--expose-gc',
    '--import',
    TSX,
    fileURLToPath(new URL('mock-server.ts', import.meta.url)),
  ]);
  const figures = JSON.parse(mock.lines.find((line) => line.startsWith('{'))!);
  const prism = await start([
    PRISM,
    'mock',
    'openapi.yaml',
    '--host',
    '127.0.0.1',
    '--port',
    '4099',
  ]);
  const rows: string[][] = [
    [
      'request',
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'req/s vs bare',
      'p99 vs bare',
      'req/s vs Prism',
    ],
  ];
  try {
    const bareResult = await drive(bare.url, { name: 'bare', method: 'GET', path: '/' });
    rows.push([
      '1 KB JSON',
      'bare node:http',
      fmt(bareResult.rps),
      fmt(bareResult.p50),
      fmt(bareResult.p99),
      fmt(bareResult.errors),
      '1.00',
      '1.00',
      '',
    ]);
    const ours = scenarios('/api/answers/v1', figures.collectionId, figures.objectId);
    const theirs = scenarios('', 'col_8f3k2m9q1x7v4b6n0p5r', 'obj_4n8c2v6b1m9x3z7q5w0e');
    for (let i = 0; i < ours.length; i++) {
      const a = await drive(mock.url, ours[i]!);
      const b = await drive(prism.url, theirs[i]!);
      const p99 = (m: Measured) => fmt(m.p99 / Math.max(bareResult.p99, 1), 2);
      rows.push([
        ours[i]!.name,
        'answers mock',
        fmt(a.rps),
        fmt(a.p50),
        fmt(a.p99),
        fmt(a.errors + a.unexpected),
        fmt(a.rps / bareResult.rps, 2),
        p99(a),
        fmt(a.rps / b.rps, 1),
      ]);
      rows.push([
        ours[i]!.name,
        'Prism mock',
        fmt(b.rps),
        fmt(b.p50),
        fmt(b.p99),
        fmt(b.errors + b.unexpected),
        fmt(b.rps / bareResult.rps, 2),
        p99(b),
        '1.0',
      ]);
    }
  } finally {
    await Promise.all([stop(bare), stop(mock), stop(prism)]);
  }
  return table(rows);
}
