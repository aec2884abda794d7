// Server-side PDFs of quotes and invoices (pdfmake 0.3, embedded Roboto). The API renders with
// renderDocumentPdf and records the bytes' sha256; documentDefinition is the pure part.
export { PDF_BUSINESS_FIELDS, type PdfAcceptance, type PdfClaim, type PdfBusiness, type PdfBusinessField, type PdfInput, type PdfLogo, type LogoKind } from './types.ts';
export { acceptanceContent, nzDateTime } from './acceptance.ts';
export { documentDefinition, documentTitle, isGstRegistered, LOGO_BOX_POINTS, type DocumentTitle } from './definition.ts';
export { renderDocumentPdf, renderDefinition } from './render.ts';
export { benchPdf, benchInvoice, type BenchOptions } from './bench.ts';
export { createPdfPool, defaultPdfThreads, PdfRenderError, sharedPdfPool, type PdfPool, type PdfPoolOptions, type PdfRenderErrorCode } from './pool.ts';
export { CREDIT_NOTE_TITLE, creditNoteDefinition, renderCreditNotePdf, type CreditNotePdfInput } from './creditNote.ts';
