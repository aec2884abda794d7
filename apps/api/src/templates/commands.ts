// The account's templates (docs/api/templates.md): a plain table, settings-like, not domain events
// (migrations.ts says why). Every statement is scoped by account: another account's template is
// not found, exactly like one that does not exist.
import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES, type TemplateFields, type TemplateRecord } from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import type { AppDeps } from '../deps.ts';
import type { AppError} from '../errors.ts';
import { Conflict, Invalid, NotFound } from '../errors.ts';

type Ports = Pick<AppDeps, 'store' | 'clock' | 'ids'>;

/** What the `body` column holds: every field but the name (which has its own column). */
type TemplateBody = Omit<TemplateFields, 'name'>;

interface TemplateRow {
  id: string;
  name: string;
  body: TemplateBody | string;
  version: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

export const STALE_TEMPLATE = 'This template was changed somewhere else since you opened it. Reload it and try again.';

const notFound = (): AppError => new NotFound(TEMPLATE_MESSAGES.notFound);
const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

function recordOf(row: TemplateRow): TemplateRecord {
  const body = typeof row.body === 'string' ? (JSON.parse(row.body) as TemplateBody) : row.body;
  return {
    id: row.id,
    name: row.name,
    type: body.type === 'invoice' ? 'invoice' : 'quote',
    // A template saved before costs were kept: each line's cost not recorded, under 'other'.
    line_items: (body.line_items ?? []).map((l) => ({ ...l, cost: l.cost ?? null, category: l.category ?? 'other', markup: l.markup ?? null })),
    profit_margin_percent: body.profit_margin_percent ?? 0,
    include_gst: body.include_gst !== false,
    client: body.client ?? null,
    notes: body.notes ?? '',
    version: Number(row.version),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

const bodyOf = ({ name: _name, ...body }: TemplateFields): string => JSON.stringify(body);

const COLUMNS = 'id, name, body, version, created_at, updated_at';

/** Every template of the account, oldest first. */
export async function listTemplates(sql: Sql, accountId: string): Promise<TemplateRecord[]> {
  const rows = await sql.query<TemplateRow>(`SELECT ${COLUMNS} FROM templates WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
  return rows.map(recordOf);
}

/** One more template; 422 when the account already keeps TEMPLATE_LIMITS.perAccount. */
export async function createTemplate(ports: Ports, accountId: string, fields: TemplateFields): Promise<TemplateRecord> {
  return ports.store.db.tx(async (tx: Sql) => {
    // One account's creates in turn, so two at once cannot both take the last place.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`templates:${accountId}`]);
    const [count] = await tx.query<{ n: number | string }>('SELECT count(*) AS n FROM templates WHERE account_id = $1', [accountId]);
    if (Number(count?.n ?? 0) >= TEMPLATE_LIMITS.perAccount) throw new Invalid(TEMPLATE_MESSAGES.tooMany);
    const now = ports.clock.now();
    const [row] = await tx.query<TemplateRow>(
      `INSERT INTO templates (account_id, id, name, body, version, created_at, updated_at) VALUES ($1, $2, $3, $4::jsonb, 1, $5, $5) RETURNING ${COLUMNS}`,
      [accountId, ports.ids.uuid(), fields.name, bodyOf(fields), now],
    );
    return recordOf(row!);
  });
}

/** Replaces a template; 404 when the account has none by that id, 409 when `version` is not the current one. */
export async function updateTemplate(ports: Ports, accountId: string, id: string, fields: TemplateFields, version: number | undefined): Promise<TemplateRecord> {
  return ports.store.db.tx(async (tx: Sql) => {
    const [current] = await tx.query<{ version: number | string }>('SELECT version FROM templates WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
    if (!current) throw notFound();
    if (version !== undefined && Number(current.version) !== version) throw new Conflict(STALE_TEMPLATE);
    const [row] = await tx.query<TemplateRow>(
      `UPDATE templates SET name = $3, body = $4::jsonb, version = version + 1, updated_at = $5 WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [accountId, id, fields.name, bodyOf(fields), ports.clock.now()],
    );
    return recordOf(row!);
  });
}

/** Deletes a template; 404 when the account has none by that id. */
export async function deleteTemplate(sql: Sql, accountId: string, id: string): Promise<void> {
  const rows = await sql.query<{ id: string }>('DELETE FROM templates WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
  if (rows.length === 0) throw notFound();
}

export { notFound as templateNotFound };
