/** `answers-mock-kit/contract`: run the contract suite from code (what `answers-contract` runs). */
export { CHECKS } from './checks/index.ts';
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
export type { ContractData } from './data.ts';
export { formatReport, formatResult, toJUnit } from './report.ts';
export {
  conformanceMatrix,
  runContract,
  TargetError,
  type CheckResult,
  type ClauseResult,
  type ContractReport,
  type Outcome,
  type RunOptions,
} from './runner.ts';
