/** `answers-mock-kit/contract`: run the contract suite from code (what `answers-contract` runs). */
export { CHECKS, PROFILE_CHECKS, SPEC_CHECKS } from './checks/index.ts';
export {
  CheckFailure,
  CheckSkipped,
  defineCheck,
  ensure,
  type CheckContext,
  type CheckLevel,
  type ContractCheck,
  type ContractKeys,
  type Requirement,
} from './check.ts';
export type { ContractClient, ContractResponse, RequestOptions } from './client.ts';
export { formatReport, formatResult, toJUnit } from './report.ts';
export {
  explore,
  type ExploreModel,
  type ExploreOptions,
  type ExploreReport,
} from './explore/explore.ts';
export type { KeyName, Keys, StepRecord } from './explore/comparison.ts';
export { conformanceMatrix } from './matrix.ts';
export {
  replay,
  type ReplayedSequence,
  type ReplayOptions,
  type ReplayReport,
  type SequenceOutcome,
} from './replay/replay.ts';
export { MAX_REPLAY_FILE_BYTES, readReplayFile, ReplayFileError } from './replay/read-file.ts';
export type { HarReading } from './replay/har.ts';
export { formatReplay, replayFailed, replayJUnit } from './replay/replay-report.ts';
export {
  runContract,
  TargetError,
  type CheckResult,
  type ClauseResult,
  type ContractReport,
  type Level,
  type Outcome,
  type RunOptions,
} from './runner.ts';
export {
  DEFAULT_DESCRIPTION,
  OPERATION_NAMES,
  type OperationName,
  type TargetDescription,
} from './target-api/description.ts';
export { loadTargetFile, parseTargetDescription, TargetFileError } from './target-api/load.ts';
export type { RunData } from './target-api/run-data.ts';
export type { Target } from './target-api/target.ts';
