/**
 * Clauses no check can prove over HTTP, and why. Every clause id of docs/spec-gaps.md is either
 * proven by a check or listed here (a test keeps it so).
 */
export const NOT_TESTABLE: Record<string, string> = {
  'SVC-1':
    'a summary of the service; its parts are proven by the collection, object and search checks',
  'REQ-1': 'a property of requests, not of the service: the suite sends JSON',
  'VER-1': 'the version segment is part of --base-url, which the suite is given',
  'VER-2': 'the base path is part of --base-url, which the suite is given',
  'OBJ-1': 'proven by the object checks, which address objects through their collection',
  'GAP-EVENTS': 'the decision is that there are no events; absence cannot be observed',
  'GAP-LIMIT-RATE': 'a rate limit cannot be probed safely against a deployment',
  'GAP-LIMIT-KEY': 'key lifetime is not observable within one run',
  'GAP-VERSIONING': 'a policy over versions, not a behaviour of one version',
  'GAP-WRITE-OPS': 'proven by the checks that create data (with --destructive)',
  'GAP-SEARCH-METHOD': 'proven by the search checks, which use it',
  'GAP-SEARCH-PATH': 'proven by the search checks, which use it',
  'GAP-DEL-PATH': 'proven by the deletion checks, which use it',
  'GAP-OBJ-PATH': 'proven by the object checks, which use it',
  'GAP-PATHS': "the suite is pointed at one prefix; the mock's own tests cover the aliases",
  'GAP-ERR-STATUS': 'proven by the response validation of every check',
  'GAP-LIMIT-SIZE': 'sending 1 MiB bodies to a deployment is not a safe default',
  'GAP-LIMIT-STORE':
    "filling a deployment to its storage limit is not safe; the mock's own tests prove its 507",
  'GAP-SEARCH-WORDS':
    "a limit of the mock, not of the contract: other implementations may accept more; the mock's own tests prove its 400",
};
