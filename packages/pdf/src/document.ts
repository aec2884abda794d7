// What every PDF of ours says about itself: A4 in NZ English, compressed, and its metadata — the
// title, the business as author, what it is about, this app as its maker and when it was made.
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';

export type PdfFrame = Pick<TDocumentDefinitions, 'pageSize' | 'pageMargins' | 'language' | 'compress' | 'info'>;

export function pdfFrame(about: { title: string; author: string; subject: string }, created: Date, pageMargins: [number, number, number, number]): PdfFrame {
  return {
    pageSize: 'A4',
    pageMargins,
    language: 'en-NZ',
    compress: true,
    info: { ...about, creator: 'Tradie Quotes', producer: 'Tradie Quotes (pdfmake)', creationDate: created, modDate: created },
  };
}
