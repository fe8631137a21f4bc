/**
 * `answers-mock-kit/contract`: the contract verbs from code, what `answers-contract` runs. Each
 * verb with its options, its report and how the command prints it; reading a target description
 * or a recording; the errors a caller tells apart from a failed run. The rest (the checks'
 * machinery, the target, the run's data, the HTTP client) is the kit's own: a type a caller
 * meets inside these (a check result, the keys) is reached through them, e.g.
 * `ContractReport['results'][number]`.
 *
 * @note The list is held to at most 25 names (test/code/contract-exports.node.test.ts), so
 * that it cannot grow by accident: a name added here is a promise kept across releases.
 */
// The suite.
export { CHECKS } from './checks/index.ts';
export { runContract, TargetError, type ContractReport, type RunOptions } from './runner.ts';
export { formatReport, toJUnit } from './report.ts';
// Explore.
export { explore, type ExploreOptions, type ExploreReport } from './explore/explore.ts';
// Replay.
export { replay, type ReplayOptions, type ReplayReport } from './replay/replay.ts';
export { readReplayFile, ReplayFileError } from './replay/read-file.ts';
export { formatReplay, replayFailed, replayJUnit } from './replay/replay-report.ts';
// Target descriptions.
export type { TargetDescription } from './target-api/description.ts';
export { loadTargetFile, parseTargetDescription, TargetFileError } from './target-api/load.ts';
