// The fixtures through the HTTP app on PGlite.
import { createTestApp } from '../support/testApp.ts';
import { fixtureEqualitySuite } from './fixtureSuite.ts';

fixtureEqualitySuite('PGlite', () => createTestApp());
