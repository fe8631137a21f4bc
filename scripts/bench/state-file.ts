/**
 * State file: what `--state-file` costs a write, and whether a large state survives the file.
 * Creates per second through the real CLI at 100,000 objects, with and without a state file, in
 * alternating rounds; then (full runs only) 1,000,000 objects written to a state file and read
 * back into a new mock in a child process (state-file-run.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drive } from './load.ts';
import { start, stop } from './processes.ts';
import { KEY, QUICK, ROOT, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

const OBJECTS = QUICK ? 10_000 : 100_000;
const ROUNDS = QUICK ? 1 : 2;

async function firstCollection(url: string): Promise<string> {
  const response = await fetch(`${url}/api/answers/v1/collections?limit=1`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return ((await response.json()) as { data: Array<{ id: string }> }).data[0]!.id;
}

/** Creates per second on 16 connections against a mock started with `extra` arguments. */
async function createsPerSecond(extra: string[]): Promise<number> {
  const mock = await start([
    '--import',
    TSX,
    'src/bin/answers-mock.ts',
    '--port',
    '0',
    '--quiet',
    '--size',
    String(OBJECTS),
    ...extra,
  ]);
  try {
    const collection = await firstCollection(mock.url);
    const measured = await drive(mock.url, {
      name: 'create object',
      method: 'POST',
      path: `/api/answers/v1/collections/${collection}/objects`,
      body: JSON.stringify({
        content: { title: 'A new answer', body: 'Saved before it is acknowledged.' },
      }),
    });
    if (measured.unexpected > 0 || measured.errors > 0)
      throw new Error(`creates failed: ${JSON.stringify(measured)}`);
    return measured.rps;
  } finally {
    await stop(mock);
  }
}

/** The 1,000,000-object round trip, in a child with room for two mocks. */
function roundTrip(file: string): Promise<Record<string, number | boolean>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=12288', '--import', TSX, 'scripts/bench/state-file-run.ts', file],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number | boolean>)
        : reject(new Error(`state-file-run exited with ${code}: ${out}`)),
    );
  });
}

export async function stateFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'answers-bench-state-'));
  try {
    const without: number[] = [];
    const withFile: number[] = [];
    let fileBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await createsPerSecond([]));
      const file = join(dir, `state-${round}.json`);
      withFile.push(await createsPerSecond(['--state-file', file]));
      fileBytes = (await stat(file)).size;
    }
    const best = (values: number[]) => Math.max(...values);
    const rows = [
      [
        'mock at ' + OBJECTS.toLocaleString('en') + ' objects',
        'creates/s (best of ' + ROUNDS + ')',
        'vs no state file',
      ],
      ['no state file', fmt(best(without)), '1.00'],
      [
        `--state-file (journal, fdatasync before each answer; file ${fmt(fileBytes / 2 ** 20, 1)} MiB after)`,
        fmt(best(withFile)),
        fmt(best(withFile) / best(without), 2),
      ],
    ];
    let text = table(rows);
    if (!QUICK) {
      const trip = await roundTrip(join(dir, 'million.json'));
      text += `\n\n${table([
        ['1,000,000 objects', 'figure'],
        ['state file written (compaction), s', fmt(Number(trip.writeMs) / 1000, 1)],
        ['state file size, MiB', fmt(Number(trip.fileBytes) / 2 ** 20, 0)],
        ['read back (replay), s', fmt(Number(trip.readMs) / 1000, 1)],
        ['loaded into a new mock, s', fmt(Number(trip.loadMs) / 1000, 1)],
        ['objects after the round trip', String(trip.objects)],
        ['same records (hash of every record, in order)', trip.same ? 'yes' : 'NO'],
      ])}`;
    }
    return text;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
