// The read models: folds from events to tables, keyed by account, updated in the append's
// transaction and rebuildable from the log (npm run projections:rebuild).
import type { Projection } from '@tradie/store';
import { clientsProjection } from './clientsList.ts';
import { documentsListProjection } from './documentsList.ts';
import { reportRowsProjection } from './reportRows.ts';

export { clientsProjection, documentsListProjection, reportRowsProjection };
export * from './fold.ts';

export const projections: Projection[] = [documentsListProjection, clientsProjection, reportRowsProjection];
