// The list and the tab counts. They live with the read model they read (packages/projections,
// queries/documentsList.ts); re-exported here for the routes that import them from this file, with
// a cursor that is not one of ours answered 422.
import { InvalidCursorError, decodeCursor as decodeSeq, listDocuments as listFromReadModel } from '@tradie/projections';
import { Invalid } from '../errors.ts';

export { countDocuments, encodeCursor, type ListFilter, type ListPage } from '@tradie/projections';

const asProblem = (e: unknown): never => {
  if (e instanceof InvalidCursorError) throw new Invalid(e.message);
  throw e;
};

export function decodeCursor(cursor: string): string {
  try {
    return decodeSeq(cursor);
  } catch (e) {
    return asProblem(e);
  }
}

export const listDocuments = (...args: Parameters<typeof listFromReadModel>): ReturnType<typeof listFromReadModel> => listFromReadModel(...args).catch(asProblem);
