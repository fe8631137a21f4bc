/**
 * `npm run bench`: the performance figures of the mock, as ratios against baselines measured in
 * the same run, on loopback only, bounded in time. Prints the tables and writes
 * docs/performance.md. Not a test: nothing here asserts a speed. The sections are in scripts/bench/.
 */
import { cpus, totalmem } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { contractSuite } from './bench/contract-suite.ts';
import { exploreBench } from './bench/explore.ts';
import { recording } from './bench/recording.ts';
import { replayBench } from './bench/replay.ts';
import { dataLayer } from './bench/data-layer.ts';
import { SHAPE_NAMES } from './bench/recorded-answers.ts';
import { scale } from './bench/scale.ts';
import { search } from './bench/search.ts';
import { snapshotBench } from './bench/snapshot.ts';
import { QUICK } from './bench/settings.ts';
import { startup } from './bench/startup.ts';
import { stateFile } from './bench/state-file.ts';
import { fmt } from './bench/tables.ts';
import { serverCpu } from './bench/server-cpu.ts';
import { throughput } from './bench/throughput.ts';

if (process.argv.includes('--help')) {
  console.log(`Usage: npm run bench [-- --quick] [--only <word>]

Measures the mock against baselines in the same run (throughput against a bare node:http server,
json-server, an express stub and Prism; memory and latency at scale, startup, the contract
suite), prints the tables and writes them into docs/performance.md between its bench markers.

  --quick        shorter runs and smaller seeds
  --only <word>  runs only the sections whose title starts with <word> (e.g. throughput,
                 startup) and replaces only those in docs/performance.md
  --shape <name> measures only that request shape in the throughput section (repeatable):
                 ${SHAPE_NAMES.join(', ')}
  --mock-from <checkout>  also measures the mock of another checkout (with node_modules) in the
                 throughput section, a row of its own: a change against the code before it
  --help         this text`);
  process.exit(0);
}

const sections: Array<[string, () => Promise<string>]> = [
  ['Throughput (16 connections, loopback)', throughput],
  ['Server CPU per request, in-process (no sockets)', serverCpu],
  ['Scale (1 connection; memory after seeding and a full GC)', scale],
  ['Data layer (in-process writes, seeding, reset; msw setupServer)', dataLayer],
  ['State file (--state-file: creates/s, and 1,000,000 objects round-tripped)', stateFile],
  ['Recording (--record: answer times over 10,000 GETs)', recording],
  ['Search (in-process; one account, 1,000 collections)', search],
  ['Startup', startup],
  ['Contract suite against the local mock', contractSuite],
  ['Explore against the local mock', exploreBench],
  ['Replay against the local mock', replayBench],
  ['Snapshot and diff of a deployment 5 ms away', snapshotBench],
];
// @note `--only throughput` re-measures one section; the others keep their last figures.
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]?.toLowerCase()
  : undefined;
const chosen = sections.filter(
  ([title]) => only === undefined || title.toLowerCase().startsWith(only),
);
if (chosen.length === 0) throw new Error(`no section's title starts with "${only}"`);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${fmt(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`;
const stamp = `Last measured ${new Date().toISOString()} on ${machine} with \`npm run bench${QUICK ? ' -- --quick' : ''}\`. Load generators and servers share the machine; every ratio compares figures from the same run.\n`;
const measured = new Map<string, string>();
for (const [title, run] of chosen) {
  console.log(`\n## ${title}\n`);
  const text = await run();
  console.log(text);
  measured.set(
    title,
    only === undefined ? text : `${stamp.replace(' with', ' (this section alone) with')}\n${text}`,
  );
}
// @note Only the measured block between the markers is replaced: the analysis around it is
// written by people and must survive the next run.
const file = new URL('../docs/performance.md', import.meta.url);
const previous = await readFile(file, 'utf8').catch(() => '');
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
const inner = previous.includes(START)
  ? previous.slice(previous.indexOf(START) + START.length, previous.indexOf(END))
  : '';
let markdown = only === undefined ? stamp : inner.trim();
for (const [title, text] of measured) {
  const part = `## ${title}\n\n${text}\n`;
  const at = markdown.indexOf(`## ${title}\n`);
  const next = at === -1 ? -1 : markdown.indexOf('\n## ', at + 1);
  markdown =
    at === -1
      ? `${markdown}\n\n${part}`
      : `${markdown.slice(0, at)}${part}${next === -1 ? '' : markdown.slice(next)}`;
}
const block = `${START}\n${markdown.trim()}\n${END}`;
await writeFile(
  file,
  previous.includes(START) && previous.includes(END)
    ? previous.slice(0, previous.indexOf(START)) +
        block +
        previous.slice(previous.indexOf(END) + END.length)
    : `${block}\n`,
);
console.log('\nwrote docs/performance.md');
