// Every door to an account's email address or password, as an attacker tries them, on PGlite
// (takeoverSupport.ts; the same tests on PostgreSQL: takeover.pg.spec.ts).
import { describe } from 'vitest';
import { useTestApp } from '../support/testApp.ts';
import { takeoverDoors } from './takeoverSupport.ts';

describe('account takeover through a pending email change (PGlite)', () => {
  const t = useTestApp();
  takeoverDoors(() => t);
});
