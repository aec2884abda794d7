// Views of a link come from the page's beacon (POST /public/links/{token}/viewed), never from the
// GET: link previews in mail and chat apps fetch pages without anyone reading them, and a beacon
// is sent by a page that a person has open. At most one view counts per link per ten minutes, and
// a link keeps its last 100 views.
import type { Sql } from '@tradie/store';

export const VIEW_WINDOW_MINUTES = 10;
export const MAX_VIEWS_KEPT = 100;

/** Counts a view of `linkId` at `now` unless one was counted in the last ten minutes; true when counted. */
export async function countView(db: { tx<T>(fn: (tx: Sql) => Promise<T>): Promise<T> }, accountId: string, linkId: string, now: Date): Promise<boolean> {
  return db.tx(async (tx) => {
    // One beacon at a time per link, so two arriving together count once.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`client-link-view:${linkId}`]);
    const at = now.toISOString();
    const inserted = await tx.query<{ at: unknown }>(
      `INSERT INTO client_link_views (link_id, account_id, at) SELECT $1, $4, $2::timestamptz
       WHERE NOT EXISTS (SELECT 1 FROM client_link_views WHERE link_id = $1 AND at > $2::timestamptz - make_interval(mins => $3))
       RETURNING at`,
      [linkId, at, VIEW_WINDOW_MINUTES, accountId],
    );
    if (inserted.length === 0) return false;
    await tx.query(
      `DELETE FROM client_link_views WHERE link_id = $1 AND at < (
         SELECT at FROM client_link_views WHERE link_id = $1 ORDER BY at DESC OFFSET $2 LIMIT 1)`,
      [linkId, MAX_VIEWS_KEPT - 1],
    );
    return true;
  });
}
