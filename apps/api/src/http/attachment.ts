import type { Context } from 'hono';

/**
 * A 200 answer to save as a file named `fileName` (Content-Disposition: attachment). Never cached:
 * every download is of one account's data.
 */
export function attachment(body: BodyInit, contentType: string, fileName: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    },
  });
}

/**
 * A PDF named `filename`: shown in the browser, or saved when the request asks `?download=1`,
 * unless `disposition` says which; with `etag` (the bytes' hash), that is its ETag.
 */
export function pdfResponse(c: Context, pdf: { bytes: Uint8Array; filename: string }, options: { disposition?: 'inline' | 'attachment'; etag?: string } = {}): Response {
  const disposition = options.disposition ?? (c.req.query('download') === '1' ? 'attachment' : 'inline');
  return c.body(new Uint8Array(pdf.bytes), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `${disposition}; filename="${pdf.filename}"`,
    'Content-Length': String(pdf.bytes.length),
    ...(options.etag === undefined ? {} : { ETag: `"${options.etag}"` }),
  });
}
