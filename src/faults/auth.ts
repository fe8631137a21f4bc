/** Faults of authentication and permissions: who is let in, and how a refusal reads. */
import { authenticate } from '../core/authenticate.ts';
import type { MockState } from '../core/store/mock-state.ts';
import type { MockRequest } from '../core/http.ts';
import type { ApiKey } from '../core/api-key.ts';
import { problem } from '../core/problem.ts';
import {
  fullKeyOf,
  problemCode,
  rewriteJson,
  routeOf,
  withHeaders,
  withKey,
  type Fault,
} from './kit.ts';

const CREDENTIAL_FAILURES = [
  'missing_credentials',
  'malformed_credentials',
  'invalid_api_key',
  'inactive_api_key',
  'conflicting_api_keys',
];

/**
 * A fault's wrap that sends on, as `rewrite` changes it, each routed request the core's credential
 * check (run ahead of the core, with no side effects) would refuse with one of `codes`; `rewrite`
 * is given the key the request presented, if the mock has it.
 */
function rewriteRefused(
  codes: readonly string[],
  rewrite: (request: MockRequest, state: MockState, presented: ApiKey | undefined) => MockRequest,
): Fault['wrap'] {
  return (state) => async (request, next) => {
    const route = routeOf(request);
    const { apiKeys } = state.store;
    const auth = route && authenticate(request.headers, apiKeys, route.operation.permission);
    if (!auth || auth.ok || !codes.includes(problemCode(auth.response) ?? '')) return next(request);
    return next(
      rewrite(
        request,
        state,
        apiKeys.find((key) => key.key === auth.presentedKey),
      ),
    );
  };
}

function withoutHeader(request: MockRequest, name: string): MockRequest {
  return withHeaders(request, { [name]: null });
}

export const AUTH_FAULTS = {
  'auth-not-enforced': {
    description:
      'Requests with no, an unknown, a malformed or an inactive key are served as if made with the full key of account acme.',
    clauses: ['AUTH-1', 'AUTH-5', 'ERR-401-1', 'ERR-401-2', 'ERR-401-3', 'ERR-401-4'],
    // Only credential failures are waved through, not permissions.
    wrap: rewriteRefused(CREDENTIAL_FAILURES, (request, state) => {
      const key = fullKeyOf(state, 'acme');
      return key ? withKey(request, key) : request;
    }),
  },

  'forbidden-instead-of-unauthorized': {
    description: 'Every 401 is answered as 403 (status line and problem "status" field).',
    clauses: [
      'AUTH-5',
      'ERR-401-1',
      'ERR-401-2',
      'ERR-401-3',
      'ERR-401-4',
      'ERR-401-5',
      'GAP-401-VS-403',
      'GAP-ERR-STATUS',
    ],
    wrap: () => async (request, next) => {
      const result = await next(request);
      if (result.response.status !== 401) return result;
      const response = rewriteJson(result.response, (body) => ({ ...body, status: 403 }));
      return { ...result, response: { ...response, status: 403 } };
    },
  },

  'header-form-ignored': {
    description:
      'The X-Answers-API-Key header is ignored, so a request authenticated only by it gets 401.',
    clauses: ['AUTH-4'],
    wrap: () => async (request, next) => {
      if (request.headers.get('x-answers-api-key') === null) return next(request);
      return next(withoutHeader(request, 'x-answers-api-key'));
    },
  },

  'permission-not-enforced': {
    description:
      'A valid key lacking the permission an operation needs is treated as the full key of its account.',
    clauses: ['AUTH-2', 'ERR-401-5', 'GAP-PERMISSIONS'],
    wrap: rewriteRefused(['insufficient_permission'], (request, state, presented) => {
      const key = presented && fullKeyOf(state, presented.account_id);
      return key ? withKey(request, key) : request;
    }),
  },

  'bearer-scheme-case-sensitive': {
    description:
      'The Authorization scheme is compared case-sensitively: "bearer <key>" (lower case) gets 401 malformed_credentials.',
    clauses: ['AUTH-3', 'GAP-AUTH-FORM'],
    wrap: () => async (request, next) => {
      const route = routeOf(request);
      const value = request.headers.get('authorization');
      if (!route || value === null || !/^bearer /i.test(value) || value.startsWith('Bearer ')) {
        return next(request);
      }
      const response = problem(
        'malformed_credentials',
        'The Authorization header must be "Bearer <API key>".',
        { headers: { 'www-authenticate': 'Bearer realm="answers", error="invalid_request"' } },
      );
      return { response, operation: route.operation };
    },
  },

  'inactive-key-accepted': {
    description:
      'The active flag of a key is never checked: an inactive key is served like an active key of its account.',
    clauses: ['ERR-401-2', 'AUTH-5', 'GAP-LIMIT-KEY'],
    wrap: rewriteRefused(['inactive_api_key'], (request, { store }, inactive) => {
      // The same account and the same permissions: what the inactive key would have had.
      const twin =
        inactive &&
        store.apiKeys.find(
          (key) =>
            key.active &&
            key.account_id === inactive.account_id &&
            key.permissions.length === inactive.permissions.length &&
            inactive.permissions.every((permission) => key.permissions.includes(permission)),
        );
      return twin ? withKey(request, twin.key) : request;
    }),
  },

  'malformed-header-accepted': {
    description:
      'Authorization is read as "<any scheme> <key> ...": the scheme is not checked and extra parts are ignored, so "Basic <key>" and "Bearer <key> extra" are served as that key.',
    clauses: ['ERR-401-4', 'AUTH-5', 'GAP-AUTH-FORM'],
    wrap: rewriteRefused(['malformed_credentials'], (request) => {
      const token = request.headers.get('authorization')?.trim().split(/\s+/)[1];
      return token ? withHeaders(request, { authorization: `Bearer ${token}` }) : request;
    }),
  },

  'conflicting-keys-first-wins': {
    description:
      'When Authorization and X-Answers-API-Key carry different keys, Authorization wins instead of 401 conflicting_api_keys.',
    clauses: ['GAP-AUTH-PRECEDENCE'],
    wrap: rewriteRefused(['conflicting_api_keys'], (request) =>
      withoutHeader(request, 'x-answers-api-key'),
    ),
  },

  'no-challenge': {
    description: 'Every 401 lacks its WWW-Authenticate challenge (status and problem body stay).',
    clauses: ['GAP-AUTH-CHALLENGE'],
    wrap: () => async (request, next) => {
      const result = await next(request);
      if (result.response.status !== 401) return result;
      const headers = Object.fromEntries(
        Object.entries(result.response.headers).filter(
          ([name]) => name.toLowerCase() !== 'www-authenticate',
        ),
      );
      return { ...result, response: { ...result.response, headers } };
    },
  },
} as const satisfies Record<string, Fault>;
