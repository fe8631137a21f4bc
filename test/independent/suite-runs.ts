/**
 * The suite (spec checks, in-process) against the independent server or one of its seeded
 * variants, described by target.yaml: shared by the engine tier's runs of the correct server and
 * the deep tier's runs of every variant (test/contract/proofs/suite-variants.node.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { SPEC_CHECKS, type CHECKS } from '../../src/contract/checks/index.ts';
import { runContract, type ContractReport } from '../../src/contract/runner.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import { startForeignHost } from './foreign-host.ts';
import { startIndependentServer } from './server.ts';
import { VARIANTS, type VariantName } from './variants.ts';

export const TARGET = fileURLToPath(new URL('./target.yaml', import.meta.url));

export async function run(
  variant: VariantName | undefined,
  options: { destructive?: boolean; checks?: typeof CHECKS } = {},
): Promise<ContractReport> {
  // @note The foreign-next-link variant links to another origin, on a second loopback address.
  const foreign = variant === 'foreign-next-link' ? await startForeignHost() : undefined;
  const server = await startIndependentServer({ variant, port: 0, foreignOrigin: foreign?.origin });
  try {
    return await runContract({
      baseUrl: server.url,
      keys: server.keys,
      checks: options.checks ?? SPEC_CHECKS,
      destructive: options.destructive ?? true,
      description: await loadTargetFile(TARGET),
      level: 'spec',
    });
  } finally {
    await server.close();
    await foreign?.close();
    // No key ever reaches another origin, whatever the target links to.
    expect(foreign?.credentialed() ?? []).toEqual([]);
  }
}

export const failedSpecIds = (report: ContractReport) =>
  report.results.filter((r) => r.level === 'spec' && r.outcome === 'fail').map((r) => r.id);

/** A row of variants.ts with every optional field visible. */
interface Row {
  variant: VariantName;
  caughtBy: string;
  destructive?: false;
  alsoFails?: readonly string[];
}
export const ROWS: readonly Row[] = VARIANTS;

/** One run per variant, shared by the tests that judge it. */
const reports = new Map<VariantName, Promise<ContractReport>>();
export function reportOf(row: Row): Promise<ContractReport> {
  let report = reports.get(row.variant);
  if (!report) {
    report = run(row.variant, { destructive: row.destructive ?? true });
    reports.set(row.variant, report);
  }
  return report;
}
