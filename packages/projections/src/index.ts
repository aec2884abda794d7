// The read models: folds from events to tables, keyed by account, updated in the append's
// transaction and rebuildable from the log (npm run projections:rebuild), and the queries that
// read them (queries/).
import type { Projection } from '@tradie/store';
import { clientsProjection } from './clientsList.ts';
import { costHistoryProjection, costsProjection, hoursProjection, recurringProjection } from './costs.ts';
import { creditNotesProjection } from './creditNotes.ts';
import { documentsListProjection } from './documentsList.ts';
import { reminderTargetsProjection } from './reminderTargets.ts';
import { reportRowsProjection } from './reportRows.ts';

export { clientsProjection, costHistoryProjection, costsProjection, hoursProjection, recurringProjection, creditNotesProjection, documentsListProjection, reminderTargetsProjection, reportRowsProjection };
export * from './fold.ts';
export * from './queries/documentsList.ts';
export * from './queries/clientsList.ts';
export * from './queries/reminderTargets.ts';
export * from './queries/creditNotes.ts';
export * from './queries/costs.ts';
export { foldCostStream, foldHoursStream } from './costs.ts';

export const projections: Projection[] = [documentsListProjection, clientsProjection, reportRowsProjection, reminderTargetsProjection, creditNotesProjection, costsProjection, costHistoryProjection, hoursProjection, recurringProjection];
