/**
 * The independent server paging by an RFC 8288 `Link` header (issue 48), and target.yaml with its
 * next page read from where a test says: shared by the suite's test of it
 * (link-header-paging.node.test.ts) and explore's (test/contract/proofs/explore-link-header).
 */
import { readFile } from 'node:fs/promises';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';
import type { TargetDescription } from '../../src/contract/target-api/description.ts';
import { startIndependentServer, type IndependentServer } from './server.ts';
import type { VariantName } from './variants.ts';

const NEXT_LINE = /^ {2}next: \/links\/next$/m;

/** target.yaml with `list.next` set to `next` (YAML), e.g. `{ header: Link }`. */
export async function describedWithNext(next: string): Promise<TargetDescription> {
  const text = await readFile(new URL('./target.yaml', import.meta.url), 'utf8');
  if (!NEXT_LINE.test(text)) throw new Error('target.yaml no longer says "next: /links/next"');
  return parseTargetDescription(
    text.replace(NEXT_LINE, `  next: ${next}`),
    `target.yaml, list.next: ${next}`,
  );
}

/** Link-header servers a test file starts, each closed by `closeAll` (its afterEach). */
export class LinkHeaderServers {
  readonly #started: IndependentServer[] = [];

  async start(variant?: VariantName): Promise<IndependentServer> {
    const server = await startIndependentServer({ paging: 'link-header', variant });
    this.#started.push(server);
    return server;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#started.splice(0).map((server) => server.close()));
  }
}
