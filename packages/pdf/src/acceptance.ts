// The acceptance certificate: the page added after an accepted quote's PDF on the client's link,
// recording who accepted it, when (in New Zealand time), which version of the quote and the
// SHA-256 of what their page showed, the address and browser it came from, and the signature.
// Pure: the same acceptance gives the same content.
import type { Content } from 'pdfmake/interfaces.js';
import type { PdfAcceptance } from './types.ts';

/** An instant as a person in New Zealand reads it: '26 November 2026, 10:15 am NZDT'. */
export function nzDateTime(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-NZ', {
    timeZone: 'Pacific/Auckland', day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true, timeZoneName: 'short',
  }).formatToParts(new Date(iso));
  const get = (t: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('day')} ${get('month')} ${get('year')}, ${get('hour')}:${get('minute')} ${get('dayPeriod').toLowerCase()} ${get('timeZoneName')}`;
}

/** A signature's PNG as pdfmake takes an image. */
const pngDataUrl = (bytes: Uint8Array): string => `data:image/png;base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;

/** What the certificate says of the business's terms: word for word when they were recorded. */
function termsLine(a: PdfAcceptance): string {
  if (a.terms === null) return a.termsAccepted ? 'Accepted (the wording was not recorded at the time)' : 'None were set';
  const terms = a.terms.trim();
  if (terms === '') return 'None were set';
  return a.termsAccepted ? `Accepted, as follows:\n${terms}` : terms;
}

/** The certificate's content, starting on a new page. */
export function acceptanceContent(a: PdfAcceptance, reference: string): Content[] {
  const row = (label: string, value: string): Content[] => [{ text: label, style: 'label' }, { text: value, margin: [0, 0, 0, 2] }];
  const what = a.variation
    ? [row('Variation', `${a.variation} to quote ${reference}`), row('Terms', 'Those of the quote it varies')]
    : [row('Quote', `${reference}, version ${a.documentVersion}`), row('Terms', termsLine(a))];
  const body: Content[][] = [
    row(a.variation ? 'Approved by' : 'Accepted by', a.signerName),
    row(a.variation ? 'Approved at' : 'Accepted at', nzDateTime(a.acceptedAt)),
    ...what,
    row('SHA-256 of what was shown', a.shownSha256),
    row('IP address', a.ip),
    row('Browser', a.userAgent || 'Not given'),
  ];
  return [
    { text: a.variation ? `Acceptance certificate: ${a.variation}` : 'Acceptance certificate', style: 'sectionHeading', fontSize: 16, pageBreak: 'before', margin: [0, 0, 0, 6] },
    { text: a.variation ? `${a.variation} to this quote was approved online through the link the business sent.` : 'This quote was accepted online through the link the business sent.', style: 'muted', margin: [0, 0, 0, 12] },
    {
      table: { widths: [150, '*'], body: body.map(([label, value]) => [label as Content, value as Content]) },
      layout: 'noBorders',
    },
    a.signaturePng
      ? { stack: [{ text: 'Signature', style: 'label', margin: [0, 14, 0, 4] }, { image: pngDataUrl(a.signaturePng), fit: [260, 110] }] }
      : { text: `Not signed: ${a.variation ? 'approved' : 'accepted'} with the typed name above.`, style: 'muted', margin: [0, 14, 0, 0] },
  ];
}
