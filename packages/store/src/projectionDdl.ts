// A projection's tables are declared once (ProjectionTable: columns, types, nullability, keys,
// indexes); the DDL that creates them is worked out from that declaration, so the columns the
// store writes and the columns the database has cannot drift apart.
import type { Projection, ProjectionColumn, ProjectionTable } from './types.ts';

/** A NOT NULL column of a projection table. */
export const column = (name: string, type: ProjectionColumn['type'] = 'text'): ProjectionColumn => ({ name, type });
/** A column that may be NULL. */
export const nullableColumn = (name: string, type: ProjectionColumn['type'] = 'text'): ProjectionColumn => ({ name, type, nullable: true });

const NAME = /^[a-z_][a-z0-9_]*$/;

function tableDdl(t: ProjectionTable): string[] {
  for (const name of [t.name, ...t.columns.map((c) => c.name), ...Object.keys(t.indexes ?? {})]) {
    if (!NAME.test(name)) throw new Error(`Projection table ${t.name}: '${name}' is not a plain SQL name`);
  }
  const width = Math.max(...t.columns.map((c) => c.name.length));
  const columns = t.columns.map((c) => `  ${c.name.padEnd(width)}  ${c.nullable ? c.type : `${c.type} NOT NULL`}`);
  const create = `CREATE TABLE IF NOT EXISTS ${t.name} (\n${[...columns, `  PRIMARY KEY (${t.primaryKey.join(', ')})`].join(',\n')}\n)`;
  const indexes = Object.entries(t.indexes ?? {}).map(([name, on]) => `CREATE INDEX IF NOT EXISTS ${name} ON ${t.name} ${on}`);
  return [create, ...indexes];
}

/** The statements that create a projection's tables and indexes (idempotent: IF NOT EXISTS), in order. */
export const projectionDdl = (p: Projection): string[] => p.tables.flatMap(tableDdl);
