// What other features use from accounting: the push after a document command (see
// docs/api/accounting.md, "Keeping Xero up to date").
export { pushDocumentChangesToXero, type PushOutcome } from './xeroSync.ts';
