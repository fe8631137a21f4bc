/**
 * A list paged by an RFC 8288 `Link` header (issue 48), as GitHub's API pages: the body holds the
 * items alone, the next page is the `rel="next"` link of the header. Described with
 * `list.next: { header: Link }`, the suite and explore walk it whole; the same server described
 * with the body's pointer (all a description could say before) leaves the whole-list rules
 * unjudged. Explore over it: test/contract/proofs/explore-link-header.node.test.ts (deep tier).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SPEC_CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { describedWithNext, LinkHeaderServers } from './link-header.ts';

const servers = new LinkHeaderServers();
afterEach(() => servers.closeAll());

async function suite(next: string) {
  const server = await servers.start();
  const report = await runContract({
    baseUrl: server.url,
    keys: server.keys,
    checks: SPEC_CHECKS,
    destructive: true,
    description: await describedWithNext(next),
    level: 'spec',
  });
  const outcome = (id: string) => report.results.find((r) => r.id === id)?.outcome;
  return { report, walk: outcome('list.walk'), order: outcome('list.order') };
}

describe('a list whose next page is in a Link header', () => {
  it('the suite walks it whole with list.next: { header: Link }, and judges every whole-list rule', async () => {
    const { report, walk, order } = await suite('{ header: Link }');
    expect(report.results.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect({ walk, order }).toEqual({ walk: 'pass', order: 'pass' });
  }, 30_000);

  it('described by the body pointer it is not, those rules are not judged (never passed on page 1)', async () => {
    const { walk, order } = await suite('/links/next');
    expect({ walk, order }).toEqual({ walk: 'skip', order: 'skip' });
  }, 30_000);
});
