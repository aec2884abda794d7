// The few PostgreSQL wire-protocol messages the PGlite adapter writes and reads itself
// (protocol v3, https://www.postgresql.org/docs/current/protocol-message-formats.html). PGlite's
// own codec copies every field into a fresh ArrayBuffer and grows its writer a few bytes at a
// time; for a command's statements that was a sixth of the time. Values stay text, as pg.query
// sends and reads them, and errors are PGlite's DatabaseError with the same fields.
import { messages } from '@electric-sql/pglite';

/** Bind (text parameters, text results) of a prepared statement to the unnamed portal. */
export function bindMessage(statement: string, values: readonly (string | null)[]): Buffer {
  let size = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + 2;
  const lengths = values.map((v) => (v === null ? -1 : Buffer.byteLength(v)));
  for (const n of lengths) size += 4 + Math.max(n, 0);
  const out = Buffer.allocUnsafe(1 + size);
  out[0] = 0x42; // 'B'
  out.writeInt32BE(size, 1);
  let at = 5;
  out[at++] = 0; // portal ''
  at += out.write(statement, at, 'utf8');
  out[at++] = 0;
  at = out.writeInt16BE(0, at); // no parameter format codes: all text
  at = out.writeInt16BE(values.length, at);
  for (let i = 0; i < values.length; i++) {
    const n = lengths[i]!;
    at = out.writeInt32BE(n, at);
    if (n > 0) at += out.write(values[i]!, at, 'utf8');
  }
  out.writeInt16BE(0, at); // no result format codes: all text
  return out;
}

export interface Field {
  name: string;
  typeId: number;
}

/** What a batch of messages answered: the last row description, the rows, command tags, the first error. */
export interface Reply {
  paramTypes: number[] | undefined;
  fields: Field[] | null | undefined;
  /** Every DataRow in the batch, as text (null for NULL). */
  rows: (string | null)[][];
  commands: string[];
  error: InstanceType<typeof messages.DatabaseError> | undefined;
}

const ERROR_FIELDS: Record<string, string> = {
  S: 'severity', C: 'code', D: 'detail', H: 'hint', P: 'position', p: 'internalPosition', q: 'internalQuery', W: 'where',
  s: 'schema', t: 'table', c: 'column', d: 'dataType', n: 'constraint', F: 'file', L: 'line', R: 'routine',
};

/** Reads the backend's answer to one batch. Messages it has no use for (notices, ReadyForQuery…) are skipped. */
export function readReply(buf: Buffer): Reply {
  const reply: Reply = { paramTypes: undefined, fields: undefined, rows: [], commands: [], error: undefined };
  let at = 0;
  const cstring = (): string => {
    const end = buf.indexOf(0, at);
    const s = buf.toString('utf8', at, end);
    at = end + 1;
    return s;
  };
  while (at + 5 <= buf.length) {
    const type = buf[at]!;
    const length = buf.readInt32BE(at + 1);
    const next = at + 1 + length;
    at += 5;
    switch (type) {
      case 0x54: { // 'T' RowDescription
        const n = buf.readInt16BE(at);
        at += 2;
        const fields: Field[] = [];
        for (let i = 0; i < n; i++) {
          const name = cstring();
          fields.push({ name, typeId: buf.readInt32BE(at + 6) });
          at += 18;
        }
        reply.fields = fields;
        break;
      }
      case 0x6e: // 'n' NoData
        reply.fields = null;
        break;
      case 0x74: { // 't' ParameterDescription
        const n = buf.readUInt16BE(at);
        const types: number[] = [];
        for (let i = 0; i < n; i++) types.push(buf.readInt32BE(at + 2 + 4 * i));
        reply.paramTypes = types;
        break;
      }
      case 0x44: { // 'D' DataRow
        const n = buf.readInt16BE(at);
        at += 2;
        const row: (string | null)[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const len = buf.readInt32BE(at);
          at += 4;
          if (len === -1) row[i] = null;
          else {
            row[i] = buf.toString('utf8', at, at + len);
            at += len;
          }
        }
        reply.rows.push(row);
        break;
      }
      case 0x43: // 'C' CommandComplete
        reply.commands.push(cstring());
        break;
      case 0x45: { // 'E' ErrorResponse: the first one counts, as in PGlite
        if (reply.error) break;
        const values: Record<string, string> = {};
        while (buf[at] !== 0) {
          const code = String.fromCharCode(buf[at]!);
          at++;
          values[code] = cstring();
        }
        const error = new messages.DatabaseError(values.M ?? '', length, 'error');
        for (const [code, key] of Object.entries(ERROR_FIELDS)) (error as unknown as Record<string, unknown>)[key] = values[code];
        reply.error = error;
        break;
      }
      default:
        break;
    }
    at = next;
  }
  return reply;
}
