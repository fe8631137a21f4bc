/**
 * Vitest's own order, with the files of LONGEST_FIRST (test/tiers.ts) moved to the front of their
 * group of projects, longest first: on two cores, a long file that starts last runs alone at the
 * end. Groups keep vitest's order; only files within one group move.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LONGEST_FIRST } from '../tiers.ts';

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(root, spec.moduleId).replaceAll('\\', '/'));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // @note Runs of one group (the projects vitest runs side by side in one pool: the install
    // tier's three), each sorted on its own (Array.prototype.sort is stable).
    const groupOf = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const runs: TestSpecification[][] = [];
    for (const spec of sorted) {
      const run = runs.at(-1);
      if (run && groupOf(run[0]!) === groupOf(spec)) run.push(spec);
      else runs.push([spec]);
    }
    return runs.flatMap((run) => run.sort((a, b) => rank(a) - rank(b)));
  }
}
