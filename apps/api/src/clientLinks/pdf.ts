// The acceptance certificate's facts for an accepted quote's public PDF: what the client's
// acceptance event recorded, and the signature it names (client_signatures, by its SHA-256).
import type { DocumentView } from '@tradie/domain';
import type { PdfAcceptance } from '@tradie/pdf';
import type { Sql } from '@tradie/store';

export async function acceptanceFor(sql: Sql, accountId: string, d: DocumentView): Promise<PdfAcceptance | null> {
  const a = d.clientAcceptance;
  if (!a || (d.status !== 'accepted' && d.status !== 'converted')) return null;
  let signaturePng: Uint8Array | null = null;
  if (a.signatureSha256) {
    const [row] = await sql.query<{ png: Uint8Array }>('SELECT png FROM client_signatures WHERE account_id = $1 AND sha256 = $2', [accountId, a.signatureSha256]);
    signaturePng = row ? new Uint8Array(row.png) : null;
  }
  return {
    signerName: a.signerName, acceptedAt: a.at ?? d.acceptedAt ?? '', documentVersion: a.documentVersion, shownSha256: a.shownSha256,
    termsAccepted: a.termsAccepted, ip: a.ip, userAgent: a.userAgent, signaturePng,
  };
}
