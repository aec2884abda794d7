// A deleted business does no more business, on PGlite: every door and every job (closedAccountSuite.ts).
import { closedAccountSuite } from './closedAccountSuite.ts';

closedAccountSuite('PGlite');
