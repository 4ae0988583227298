// Keeps the sink's connections bounded, whoever opens them. A connection is
// idle (no request in progress), receiving (a request whose body has not ended)
// or held (a complete request the sink is answering, perhaps slowly on purpose).
// - At most `max` connections: a new one makes room by closing the one stalled
//   longest in a body, else the oldest that never sent a whole request (a
//   slowloris connection dribbling its headers, a port scan), else the oldest
//   idle one; never a held one. A sender whose requests arrive whole is always
//   let in, and its kept-alive connections outlast a flood of fresh ones.
// - A request whose body has not ended `deadlineMs` after its headers is cut;
//   a connection idle that long without ever sending a request is closed.
import type { Socket } from 'node:net';

type State = 'idle' | 'receiving' | 'held';
interface Conn {
  state: State; since: number; fresh: boolean;
  /** When it was accepted (the recorder's clock), until its first request takes it. */
  acceptedNs?: bigint;
}

export interface GuardStats {
  /** Connections open now. */
  open: number;
  /** Connections closed to make room under the cap, or idle too long. */
  closed: number;
}

export class ConnectionGuard {
  private readonly conns = new Map<Socket, Conn>();
  private readonly sweep: NodeJS.Timeout;
  private closedCount = 0;

  /**
   * `cut(socket)` ends the receiving request of a socket (the server records
   * the attempt as cut off and closes it); it is called for a request past its
   * deadline or on a connection closed to make room.
   */
  constructor(private readonly max: number, private readonly deadlineMs: number, private readonly now: () => number,
    private readonly cut: (socket: Socket) => void) {
    // Checked four times per deadline (at most every second): a cut comes at most a quarter late.
    this.sweep = setInterval(() => this.expire(), Math.min(1_000, Math.max(50, deadlineMs / 4)));
    this.sweep.unref();
  }

  /**
   * A new connection, accepted at `acceptedNs` (over TLS, the handshake's end): admitted, after making room when the
   * cap is reached; false when it was refused.
   */
  admit(socket: Socket, acceptedNs?: bigint): boolean {
    if (this.conns.size >= this.max && !this.makeRoom()) { socket.destroy(); this.closedCount++; return false; }
    this.conns.set(socket, { state: 'idle', since: this.now(), fresh: true, ...(acceptedNs === undefined ? {} : { acceptedNs }) });
    socket.once('close', () => this.conns.delete(socket));
    return true;
  }

  set(socket: Socket, state: State): void {
    const c = this.conns.get(socket);
    if (!c) return;
    c.state = state; c.since = this.now();
    if (state !== 'idle') c.fresh = false;
    // Kept in order of the last change, so the first receiving one is the one stalled longest
    // (a sender's old keep-alive connection that just began a request is not it).
    this.conns.delete(socket);
    this.conns.set(socket, c);
  }

  /** When the connection was accepted, the first time it is asked (its first request's RawAttempt.connectedNs); after that, undefined. */
  takeAccepted(socket: Socket): bigint | undefined {
    const c = this.conns.get(socket);
    const at = c?.acceptedNs;
    if (c) delete c.acceptedNs;
    return at;
  }

  stats(): GuardStats { return { open: this.conns.size, closed: this.closedCount }; }

  stop(): void { clearInterval(this.sweep); }

  /**
   * Closes the connection that has been receiving the longest, else the oldest
   * fresh one (no whole request yet), else the oldest idle one; never a held
   * one. False when every one is held.
   */
  private makeRoom(): boolean {
    let fresh: Socket | undefined, idle: Socket | undefined;
    for (const [socket, c] of this.conns) {
      if (c.state === 'receiving') { this.close(socket, c); return true; }
      if (c.state === 'idle' && c.fresh) fresh ??= socket;
      else if (c.state === 'idle') idle ??= socket;
    }
    const victim = fresh ?? idle;
    if (!victim) return false;
    this.close(victim, this.conns.get(victim)!);
    return true;
  }

  private close(socket: Socket, c: Conn): void {
    this.conns.delete(socket);
    this.closedCount++;
    if (c.state === 'receiving') this.cut(socket);
    else socket.destroy();
  }

  private expire(): void {
    const limit = this.now() - this.deadlineMs;
    const due: Socket[] = [];
    for (const [socket, c] of this.conns) {
      // In order of the last change: once one changed after the limit, so did every later one.
      if (c.since > limit) break;
      // Idle after a request is Node's keep-alive business; only receiving and never-used connections are cut here.
      if (overdue(c, limit)) due.push(socket);
    }
    if (!due.length) return;
    // Judged again after the loop's next reads: a timer runs after a turn's reads, so when the process lost its core
    // between the two (a starved machine), what a sender sent in time still waits unread in the socket, and a
    // connection whose request came whole would be cut as if it had sent nothing.
    setImmediate(() => {
      for (const socket of due) {
        const c = this.conns.get(socket);
        if (c && overdue(c, limit)) this.close(socket, c);
      }
    });
  }
}

/** A request whose body has not ended, or a connection that never sent one, unchanged since before `limit`. */
function overdue(c: Conn, limit: number): boolean {
  return c.since <= limit && (c.state === 'receiving' || (c.state === 'idle' && c.fresh));
}
