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
