// Recording the statements a command sends, and sending them again: the floor of a command is the
// same statements replayed through the same driver and pool with nothing worked out in between.
import type { Db, Sql, Statement } from '@tradie/store';

/** One thing a command did with the database: a statement on the pool, or a transaction. */
export type Step = { tx: false; statement: Statement } | { tx: true; statements: Statement[]; last: Statement | null };

/** A Db that notes every statement sent through it, command by command (`take` ends one). */
export interface Recorder {
  db: Db;
  /** The steps since the last call. */
  take(): Step[];
}

export function recorder(db: Db): Recorder {
  let steps: Step[] = [];
  // The same text is one string, as it would be in a statement cache.
  const texts = new Map<string, string>();
  const statement = (text: string, params: unknown[] = []): Statement => {
    let t = texts.get(text);
    if (t === undefined) texts.set(text, (t = text));
    return { text: t, params };
  };
  return {
    db: {
      kind: db.kind,
      query(text, params) {
        steps.push({ tx: false, statement: statement(text, params) });
        return db.query(text, params);
      },
      tx(fn, last) {
        const step: Step & { tx: true } = { tx: true, statements: [], last: null };
        steps.push(step);
        const inner = (sql: Sql): Sql => ({
          query(text, params) {
            step.statements.push(statement(text, params));
            return sql.query(text, params);
          },
        });
        return db.tx((sql) => fn(inner(sql)), last && (() => (step.last = last())));
      },
      exec: (text) => db.exec(text),
      close: () => db.close(),
    },
    take() {
      const taken = steps;
      steps = [];
      return taken;
    },
  };
}

/** Sends a command's recorded steps again, in order, each awaited as the command awaited it. */
export async function replay(db: Db, steps: readonly Step[]): Promise<void> {
  for (const step of steps) {
    if (!step.tx) {
      await db.query(step.statement.text, step.statement.params);
      continue;
    }
    await db.tx(
      async (sql) => {
        for (const s of step.statements) await sql.query(s.text, s.params);
      },
      () => step.last,
    );
  }
}
