// A public request's token, checked: which link of which account's document it names, or the
// answer the client reads (404 unknown or malformed; 410 withdrawn, superseded, expired, voided, or
// the business closed its account). Every public route starts here; a wrong token learns nothing
// about any link.
//
// Whether a link still works is the document stream's word (ClientLinkIssued / ClientLinkWithdrawn,
// decided with the document's own commands: a revision or a void supersedes the link in the same
// append); the client_links row finds the link by its token's hash and holds its expiry.
import { CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { nzDateOf } from '@tradie/domain';
import { refuseClosedAccount } from '../account/liveness.ts';
import type { AppDeps } from '../deps.ts';
import { type LoadedDocument, loadDocument } from '../documents/repository.ts';
import { type LinkKind, plausibleToken, sameDigest, tokenSha256 } from './tokens.ts';
import type { AppError} from '../errors.ts';
import { Gone, NotFound } from '../errors.ts';

export interface ResolvedLink {
  linkId: string;
  accountId: string;
  documentId: string;
  kind: LinkKind;
}

export interface ResolvedLinkWithDocument extends ResolvedLink {
  /** The document as the client may see it now (its stream read once, every event checked). */
  document: LoadedDocument;
}

interface LinkRow {
  id: string;
  account_id: string;
  document_id: string;
  kind: LinkKind;
  token_sha256: string;
  expires_on: string;
}

export type ResolveDeps = Pick<AppDeps, 'store' | 'clock'>;

const notFound = (): AppError => new NotFound(CLIENT_LINK_MESSAGES.notFound);
const gone = (detail: string): AppError => new Gone(detail);

/** The link and its document, or the 404 / 410 the client reads. `kind` null: either kind (the page's beacon). */
export async function resolveLinkAndDocument(deps: ResolveDeps, token: string, kind: LinkKind | null): Promise<ResolvedLinkWithDocument> {
  if (typeof token !== 'string' || !plausibleToken(token)) throw notFound();
  const hash = tokenSha256(token);
  const [row] = await deps.store.db.query<LinkRow>(
    'SELECT id, account_id, document_id, kind, token_sha256, expires_on::text AS expires_on FROM client_links WHERE token_sha256 = $1',
    [hash],
  );
  if (!row || !sameDigest(row.token_sha256, hash) || (kind !== null && row.kind !== kind)) throw notFound();
  // A business that deleted its account: every link of it is gone, whatever its document says.
  await refuseClosedAccount(deps.store.db, row.account_id);
  const document = await loadDocument(deps.store, row.account_id, row.document_id).catch((e: unknown) => {
    throw e instanceof NotFound ? notFound() : e;
  });
  const d = document.state;
  if (d.status === 'void') throw gone(CLIENT_LINK_MESSAGES.voided);
  if (d.clientLink?.linkId !== row.id) {
    const withdrawn = document.events.find((e) => e.type === 'ClientLinkWithdrawn' && (e.data as { linkId?: unknown }).linkId === row.id);
    if (!withdrawn) throw notFound();
    throw gone((withdrawn.data as { reason?: unknown }).reason === 'superseded' ? CLIENT_LINK_MESSAGES.superseded : CLIENT_LINK_MESSAGES.withdrawn);
  }
  if (row.expires_on.slice(0, 10) < nzDateOf(deps.clock.now())) throw gone(CLIENT_LINK_MESSAGES.expired);
  return { linkId: row.id, accountId: row.account_id, documentId: row.document_id, kind: row.kind, document };
}

/**
 * The link `token` names, of the `kind` the route serves (a quote's token on an invoice route is
 * unknown). Throws NotFound / Gone with CLIENT_LINK_MESSAGES' details.
 */
export async function resolveClientLink(deps: ResolveDeps, token: string, kind: LinkKind): Promise<ResolvedLink> {
  const { linkId, accountId, documentId } = await resolveLinkAndDocument(deps, token, kind);
  return { linkId, accountId, documentId, kind };
}
