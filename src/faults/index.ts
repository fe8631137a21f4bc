/**
 * The fault switch: run the mock with exactly one deliberate defect, to prove a contract suite can
 * fail. Not exported by any default entry point; import `src/faults/index.ts` explicitly.
 */
export { FAULTS, FAULT_NAMES, isFaultName, type FaultName } from './faults.ts';
export { withFault } from './with-fault.ts';
