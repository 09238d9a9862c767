import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** ParseComplete, the answer to a Parse that went well. */
const PARSE_COMPLETE = Buffer.from([0x31, 0, 0, 0, 4]);
/** Close of the unnamed statement (closing one that does not exist is not an error). */
const CLOSE_UNNAMED = Buffer.from([0x43, 0, 0, 0, 6, 0x53, 0]);

/**
 * A unit as PGlite runs it when named statements are shared by the session's connections: a
 * leading Parse (pg's place for it) of a statement the session already holds with the same text is
 * left out, to be answered here, and a Close of a held statement closes the unnamed one instead, as
 * other connections go on using it. `parse` is the leading Parse's statement, if named.
 */
export function shareStatements(
  unit: Buffer,
  held: ReadonlyMap<string, string>,
): { message: Buffer; parse: { name: string; text: string } | null; answered: boolean } {
  const pieces: Buffer[] = [];
  let parse: { name: string; text: string } | null = null;
  let answered = false;
  let changed = false;
  for (let at = 0; at + 5 <= unit.length;) {
    const length = unit.readInt32BE(at + 1);
    if (length < 4) return { message: unit, parse: null, answered: false };
    const end = Math.min(unit.length, at + 1 + length);
    const msg = unit.subarray(at, end);
    const type = msg[0];
    if (type === 0x50 /* P */ && at === 0) {
      const nameEnd = msg.indexOf(0, 5);
      const textEnd = nameEnd > 5 ? msg.indexOf(0, nameEnd + 1) : -1;
      if (textEnd > 0) {
        parse = { name: msg.toString('utf8', 5, nameEnd), text: msg.toString('utf8', nameEnd + 1, textEnd) };
        answered = held.get(parse.name) === parse.text;
      }
    }
    const closesHeld = type === 0x43 /* C */ && msg[5] === 0x53 /* S */ && held.has(msg.toString('utf8', 6, msg.indexOf(0, 6)));
    if ((at === 0 && answered) || closesHeld) changed = true;
    if (closesHeld) pieces.push(CLOSE_UNNAMED);
    else if (!(at === 0 && answered)) pieces.push(msg);
    at = end;
  }
  return { message: changed ? Buffer.concat(pieces) : unit, parse, answered };
}

interface Conn {
  socket: net.Socket;
  buffer: Buffer;
  started: boolean;
  /** Messages of the unit being received. */
  unit: Buffer[];
  closed: boolean;
}

interface Unit {
  conn: Conn;
  message: Buffer;
  /** False for a Flush: the connection's unit goes on, so it keeps the session until its Sync. */
  complete: boolean;
}

/**
 * Serves PGlite's one session to several pg connections on a unix socket, so the API's queries
 * queue in the database thread instead of waiting in the pool for one connection's round trip.
 *
 * A connection's requests run as whole units with nothing of another connection in between: every
 * message up to a Sync (a parameterised query: Parse, Bind, Describe, Execute, Sync) or one simple
 * Query. Each unit goes into PGlite in one call and its answer leaves in one write. While a
 * connection is inside a transaction, or has flushed in the middle of a unit, only its units run;
 * a connection that goes away inside a transaction has it rolled back. (COPY ... FROM STDIN is not
 * relayed: nothing here uses it.)
 *
 * Named statements belong to the session, not to a connection: the first connection's Parse of a
 * name prepares it, and another connection's Parse of the same name and text (namedStatements.ts
 * names a statement by its text's hash) is answered ParseComplete here instead of failing with
 * "prepared statement already exists"; a connection's Close leaves it for the others
 * (shareStatements).
 *
 * (pglite-socket, which this replaces, feeds PGlite one message at a time and writes each answer
 * on its own, a cross-thread wake-up each; we ran it with one connection, as ARCHITECTURE.md
 * reports concurrent transactions corrupted with more, and it did not roll back the transaction
 * of a connection that went away.)
 */
export async function servePglite(db: PGlite, socketPath: string): Promise<{ close(): Promise<void> }> {
  const queue: Unit[] = [];
  let owner: Conn | null = null;
  let running = false;
  /** The session's named statements, name -> text. */
  const prepared = new Map<string, string>();

  const pump = async () => {
    if (running) return;
    running = true;
    try {
      for (;;) {
        if (owner?.closed) await release(owner);
        const i = owner ? queue.findIndex((u) => u.conn === owner) : queue.length ? 0 : -1;
        if (i < 0) break;
        const unit = queue.splice(i, 1)[0]!;
        const out: Buffer[] = [];
        const { message, parse, answered } = shareStatements(unit.message, prepared);
        try {
          await db.runExclusive(() => db.execProtocolRawStream(message, { onRawData: (d) => out.push(Buffer.from(d)) }));
        } catch {
          unit.conn.socket.destroy();
        }
        if (answered) out.unshift(PARSE_COMPLETE);
        else if (parse?.name && out[0]?.[0] === PARSE_COMPLETE[0]) prepared.set(parse.name, parse.text);
        owner = db.isInTransaction() || !unit.complete ? unit.conn : null;
        if (!unit.conn.closed && out.length) unit.conn.socket.write(out.length === 1 ? out[0]! : Buffer.concat(out));
      }
    } finally {
      running = false;
    }
  };

  const drop = (conn: Conn) => {
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.conn === conn) queue.splice(i, 1);
  };
  /** The session's holder is gone: its open transaction is rolled back, and others may run. */
  const release = async (conn: Conn) => {
    drop(conn);
    owner = null;
    // exec takes PGlite's query lock itself (runExclusive around it would wait for itself).
    if (db.isInTransaction()) await db.exec('rollback');
  };

  const enqueue = (conn: Conn, messages: Buffer[], complete: boolean) => {
    queue.push({ conn, message: messages.length === 1 ? messages[0]! : Buffer.concat(messages), complete });
    void pump();
  };

  const onData = (conn: Conn, chunk: Buffer) => {
    conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
    for (;;) {
      const b = conn.buffer;
      if (!conn.started) {
        if (b.length < 8) return;
        const len = b.readInt32BE(0);
        if (b.length < len) return;
        const code = b.readInt32BE(4);
        const msg = Buffer.from(b.subarray(0, len));
        conn.buffer = b.subarray(len);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) conn.socket.write('N');
        else if (code === CANCEL_REQUEST) conn.socket.destroy();
        else {
          conn.started = true;
          enqueue(conn, [msg], true);
        }
        continue;
      }
      if (b.length < 5) return;
      const len = 1 + b.readInt32BE(1);
      if (b.length < len) return;
      const type = b[0]!;
      const msg = Buffer.from(b.subarray(0, len));
      conn.buffer = b.subarray(len);
      if (type === 0x58 /* X: Terminate */) {
        conn.socket.end();
        return;
      }
      conn.unit.push(msg);
      // Sync ends an extended-protocol unit and Query is one; Flush sends what is ready but the
      // unit goes on.
      if (type === 0x53 /* S */ || type === 0x51 /* Q */ || type === 0x48 /* H */) {
        enqueue(conn, conn.unit, type !== 0x48);
        conn.unit = [];
      }
    }
  };

  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const conn: Conn = { socket, buffer: Buffer.alloc(0), started: false, unit: [], closed: false };
    sockets.add(socket);
    socket.on('data', (c: Buffer) => onData(conn, c));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      conn.closed = true;
      drop(conn);
      void pump();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
