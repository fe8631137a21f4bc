/** Startup: the median time from spawning the mock (and Prism) to its first 200. */
import { start, stop } from './processes.ts';
import { KEY, PRISM, QUICK, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

export async function startup(): Promise<string> {
  const runs = QUICK ? 3 : 5;
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const measure = async (args: string[], probe: (url: string) => Promise<boolean>) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const began = performance.now();
      const process_ = await start(args, 120_000);
      while (!(await probe(process_.url).catch(() => false)))
        await new Promise((r) => setTimeout(r, 5));
      times.push(performance.now() - began);
      await stop(process_);
    }
    return median(times);
  };
  const ours = await measure(
    ['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet'],
    async (url) =>
      (
        await fetch(`${url}/api/answers/v1/collections`, {
          headers: { authorization: `Bearer ${KEY}` },
        })
      ).ok,
  );
  const prism = await measure(
    [PRISM, 'mock', 'openapi.yaml', '--host', '127.0.0.1', '--port', '4098'],
    async (url) =>
      (await fetch(`${url}/collections`, { headers: { authorization: `Bearer ${KEY}` } })).ok,
  );
  return table([
    ['server', `median of ${runs} starts to first 200, ms`, 'vs Prism'],
    ['answers mock (npm start: tsx src/bin/answers-mock.ts)', fmt(ours), fmt(ours / prism, 2)],
    ['Prism mock', fmt(prism), '1.00'],
  ]);
}
