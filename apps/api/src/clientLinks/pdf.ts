// The acceptance certificates' facts for an accepted quote's PDF: what the client's acceptance event
// recorded (and each variation's approval through the link), and the signature each names
// (client_signatures, by its SHA-256).
import { type DocumentView, variationName } from '@tradie/domain';
import type { PdfAcceptance } from '@tradie/pdf';
import type { Sql } from '@tradie/store';

async function signatureOf(sql: Sql, accountId: string, sha256: string | null): Promise<Uint8Array | null> {
  if (!sha256) return null;
  const [row] = await sql.query<{ png: Uint8Array }>('SELECT png FROM client_signatures WHERE account_id = $1 AND sha256 = $2', [accountId, sha256]);
  return row ? new Uint8Array(row.png) : null;
}

export async function acceptanceFor(sql: Sql, accountId: string, d: DocumentView): Promise<PdfAcceptance | null> {
  const a = d.clientAcceptance;
  if (!a || (d.status !== 'accepted' && d.status !== 'converted')) return null;
  return {
    signerName: a.signerName, acceptedAt: a.at ?? d.acceptedAt ?? '', documentVersion: a.documentVersion, shownSha256: a.shownSha256,
    termsAccepted: a.termsAccepted, terms: a.terms ?? null, ip: a.ip, userAgent: a.userAgent, signaturePng: await signatureOf(sql, accountId, a.signatureSha256),
  };
}

/** A certificate for each variation the client approved through the link, in order. */
export async function variationAcceptancesFor(sql: Sql, accountId: string, d: DocumentView): Promise<PdfAcceptance[]> {
  const out: PdfAcceptance[] = [];
  for (const v of d.variations) {
    const a = v.clientAcceptance;
    if (v.status !== 'approved' || !a) continue;
    out.push({
      variation: variationName(v), signerName: a.signerName, acceptedAt: a.at ?? v.approvedAt ?? '', documentVersion: v.number, shownSha256: a.shownSha256,
      termsAccepted: false, terms: null, ip: a.ip, userAgent: a.userAgent, signaturePng: await signatureOf(sql, accountId, a.signatureSha256),
    });
  }
  return out;
}

/** Both, as renderPdfFor takes them. */
export async function certificatesFor(sql: Sql, accountId: string, d: DocumentView): Promise<[PdfAcceptance | null, PdfAcceptance[]]> {
  return [await acceptanceFor(sql, accountId, d), await variationAcceptancesFor(sql, accountId, d)];
}
