// The test projects. The root vitest.config.ts passes this list to `test.projects`
// (Vitest 4+ dropped workspace files; the list is kept in this file at the top level).
//
// Suffix says the level: *.spec.ts pure, *.int.spec.ts through the HTTP app on PGlite,
// *.pg.spec.ts on a real PostgreSQL server (started once by the `postgres` project).
import type { TestProjectInlineConfiguration } from 'vitest/config';

const pg = '**/*.pg.spec.ts';

export const projects: TestProjectInlineConfiguration[] = [
  { test: { name: 'domain', include: ['packages/domain/src/**/*.spec.ts'] } },
  {
    test: {
      name: 'packages',
      include: ['packages/{store,projections,contracts,pdf,testkit}/{src,test}/**/*.spec.ts'],
      exclude: [pg, '**/node_modules/**'],
    },
  },
  { test: { name: 'api', include: ['apps/api/{src,test}/**/*.spec.ts'], exclude: [pg, '**/node_modules/**'] } },
  { test: { name: 'web', include: ['apps/web/src/**/*.spec.{ts,tsx}'] } },
  { test: { name: 'cli', include: ['apps/cli/{src,test}/**/*.spec.ts'], exclude: [pg, '**/node_modules/**'] } },
  {
    test: {
      name: 'postgres',
      include: ['{packages,apps}/*/{src,test}/**/*.pg.spec.ts'],
      globalSetup: ['packages/testkit/src/postgres-global-setup.ts'],
    },
  },
];
