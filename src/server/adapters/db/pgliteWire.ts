import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

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
 * (pglite-socket, which this replaces, feeds PGlite one message at a time and writes each answer
 * on its own, a cross-thread wake-up each; we ran it with one connection, as ARCHITECTURE.md
 * reports concurrent transactions corrupted with more, and it did not roll back the transaction
 * of a connection that went away.)
 */
export async function servePglite(db: PGlite, socketPath: string): Promise<{ close(): Promise<void> }> {
  const queue: Unit[] = [];
  let owner: Conn | null = null;
  let running = false;

  const pump = async () => {
    if (running) return;
    running = true;
    try {
      for (;;) {
        if (owner?.closed) await release(owner);
        const i = owner ? queue.findIndex((u) => u.conn === owner) : queue.length ? 0 : -1;
        if (i < 0) break;
        const unit = queue.splice(i, 1)[0]!;
        const out: Uint8Array[] = [];
        try {
          await db.runExclusive(() => db.execProtocolRawStream(unit.message, { onRawData: (d) => out.push(Buffer.from(d)) }));
        } catch {
          unit.conn.socket.destroy();
        }
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
