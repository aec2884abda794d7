// A deleted business does no more business, on a real PostgreSQL server: every door and every job (closedAccountSuite.ts).
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { closedAccountSuite } from './closedAccountSuite.ts';

closedAccountSuite('PostgreSQL', () => freshDatabaseUrl('closed-account'));
