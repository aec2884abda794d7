import { openPglite } from '../src/index.ts';
import { eventStoreConformance } from './conformance.ts';

eventStoreConformance('PGlite (in memory)', () => openPglite());
