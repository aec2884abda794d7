import { describe, expect, it } from 'vitest';
import { column as c, nullableColumn as n, projectionDdl, type Projection } from '../src/index.ts';

const declared = (tables: Projection['tables']): Projection => ({ name: 'p', categories: ['p'], tables, key: () => null, rows: () => ({}) });

describe('projectionDdl', () => {
  it('creates each declared table with its columns, NOT NULL unless nullable, its primary key and its indexes', () => {
    const p = declared([
      {
        name: 'jobs',
        streamKey: 'job_id',
        primaryKey: ['job_id', 'entry'],
        indexes: { jobs_account_day: '(account_id, day)', jobs_open: '(account_id) WHERE done_at IS NULL' },
        columns: [c('job_id'), c('entry'), c('account_id'), c('amount_cents', 'bigint'), n('day', 'date'), n('done_at', 'timestamptz')],
      },
      { name: 'tags', streamKey: 'job_id', primaryKey: ['job_id'], columns: [c('job_id'), c('tags', 'jsonb')] },
    ]);
    expect(projectionDdl(p)).toEqual([
      [
        'CREATE TABLE IF NOT EXISTS jobs (',
        '  job_id        text NOT NULL,',
        '  entry         text NOT NULL,',
        '  account_id    text NOT NULL,',
        '  amount_cents  bigint NOT NULL,',
        '  day           date,',
        '  done_at       timestamptz,',
        '  PRIMARY KEY (job_id, entry)',
        ')',
      ].join('\n'),
      'CREATE INDEX IF NOT EXISTS jobs_account_day ON jobs (account_id, day)',
      'CREATE INDEX IF NOT EXISTS jobs_open ON jobs (account_id) WHERE done_at IS NULL',
      'CREATE TABLE IF NOT EXISTS tags (\n  job_id  text NOT NULL,\n  tags    jsonb NOT NULL,\n  PRIMARY KEY (job_id)\n)',
    ]);
  });

  it('refuses a table, column or index name that is not a plain SQL name', () => {
    const table = { name: 'ok', streamKey: 'id', primaryKey: ['id'] as [string], columns: [c('id')] };
    expect(() => projectionDdl(declared([{ ...table, name: 'bad name' }]))).toThrow(/not a plain SQL name/);
    expect(() => projectionDdl(declared([{ ...table, columns: [c('id'), c('x; DROP TABLE events')] }]))).toThrow(/not a plain SQL name/);
    expect(() => projectionDdl(declared([{ ...table, indexes: { 'Bad-Index': '(id)' } }]))).toThrow(/not a plain SQL name/);
  });
});
