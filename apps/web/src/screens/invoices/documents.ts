// The list's paging and the shared display helpers under one name, as documents.spec.ts checks
// them. Screens import from ./queries.ts and ../shared/documents.ts directly.
export { centsOf, isSynced, paymentBadge, referenceOf, syncedMessage, syncErrorMessage } from '../shared/documents.ts';
export { fetchDocumentPage } from './queries.ts';
