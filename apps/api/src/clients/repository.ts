// Reads of the client book. They live with the read models they read (packages/projections,
// queries/clientsList.ts); re-exported here for the routes that import them from this file.
export { clientDocuments, clientMatches, clientRecordOf, compareClients, findClient, listClients } from '@tradie/projections';
