/**
 * What `explore` uses of fast-check, from one module. fast-check is a devDependency: the build
 * bundles this module alone over its compiled file (scripts/build.ts), so the installed kit
 * carries only these functions, tree-shaken (docs/decisions/fast-check-bundled.md).
 */
export {
  array,
  asyncProperty,
  boolean,
  check,
  constant,
  constantFrom,
  dictionary,
  integer,
  interruptAfterTimeLimit,
  letrec,
  nat,
  noShrink,
  oneof,
  option,
  PreconditionFailure,
  record,
  string,
  tuple,
} from 'fast-check';
export type { Arbitrary, Plugin } from 'fast-check';
