// Every /api/v1 operation without a running server or a database, for npm run openapi
// (apps/cli/src/openapi.ts) and the tests. Building the routes only captures their ports in
// closures, so the routes are built here from placeholder ports that refuse to be used; only the
// configuration is real (the defaults), because some routes read it as they are built.
import { apiRoutes } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import type { Operation } from './describe.ts';
import { operationsOf } from './operationsOf.ts';

/** A port that is held but never used: a property of it is another such port, a call throws. */
function unused<T>(name: string): T {
  return new Proxy(() => {}, {
    get: (_target, prop) => (prop === 'then' ? undefined : unused(`${name}.${String(prop)}`)),
    apply: () => {
      throw new Error(`${name}() was called on a placeholder port: the routes are only being listed`);
    },
  }) as T;
}

/** Ports for building the routes to read their descriptions, never to answer a request. */
export function describingDeps(): AppDeps {
  return {
    config: loadConfig({}),
    store: unused('store'),
    clock: unused('clock'),
    ids: unused('ids'),
    mailer: unused('mailer'),
    secrets: unused('secrets'),
    log: unused('log'),
    accounting: null,
    billing: null,
  };
}

/** The /api/v1 operations, as the routes describe them (the source of the OpenAPI document). */
export function apiOperations(deps: AppDeps = describingDeps()): Operation[] {
  return operationsOf(apiRoutes(deps));
}
