// What the terminal shows while nothing finishes: a check that waits on
// purpose (a token's lifetime, the webhook suite's retry chains) tells what it
// waits for and until when, and the status line says so with the time left:
// rewritten in place on a terminal, a line every 10 s otherwise (a CI log).
// Without such a note it still names the checks that are running and for how
// long, so a run is never silent. Checks run in Playwright's workers; their
// notes reach the reporter as marked lines of their standard output, and those
// of `run`'s own process (the webhook drive) as the same lines on a pipe.
import { Socket } from 'node:net';

/** A wait announced by a check; `end` takes it back. Times are epoch ms (workers share the clock). */
export interface WaitNote {
  key: string;
  what: string;
  untilMs?: number;
  /** untilMs is an upper bound (the wait may end sooner), not the expected end. */
  bound?: boolean;
  end?: boolean;
}

/** ASCII record separator: never part of what a check prints for a person. */
const MARK = '\u001epis-wait ';

export function encodeWait(n: WaitNote): string {
  return `${MARK}${JSON.stringify(n)}\n`;
}

/** Takes the wait notes out of a chunk of a worker's output; the rest is printed as it is. */
export function splitWaits(chunk: string): { notes: WaitNote[]; text: string } {
  if (!chunk.includes(MARK)) return { notes: [], text: chunk };
  const notes: WaitNote[] = [];
  const text: string[] = [];
  for (const line of chunk.split(/(?<=\n)/)) {
    if (!line.startsWith(MARK)) { text.push(line); continue; }
    try { notes.push(JSON.parse(line.slice(MARK.length)) as WaitNote); } catch { /* a cut note is dropped, never printed */ }
  }
  return { notes, text: text.join('') };
}

/**
 * Reads the wait notes of `run`'s own process (the webhook drive runs there,
 * beside Playwright, see harness/runner/webhook.ts) that arrive on `fd`, if
 * one is given, and hands each to `onNote`; returns the function that stops reading.
 */
export function readNotes(onNote: (n: WaitNote) => void, fd: number | undefined): () => void {
  if (fd === undefined || !Number.isInteger(fd) || fd <= 2) return () => {};
  let socket: Socket;
  try { socket = new Socket({ fd, readable: true, writable: false }); } catch { return () => {}; }
  let rest = '';
  socket.on('data', (d: Buffer) => {
    const lines = (rest + d.toString('utf8')).split(/(?<=\n)/);
    rest = lines[lines.length - 1]!.endsWith('\n') ? '' : lines.pop()!;
    for (const n of splitWaits(lines.join('')).notes) onNote(n);
  });
  socket.on('error', () => { /* the writer went: no more notes */ });
  socket.unref();
  return () => socket.destroy();
}

interface Out { write(s: string): unknown; isTTY?: boolean; columns?: number }

/**
 * While the run starts (Playwright collects the checks, its workers start), a log
 * hears where it stands this often (arbitrary: a few seconds of silence in a pipe, not ten).
 */
const IDLE_EVERY_MS = 3000;

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

export class LiveStatus {
  private readonly waits = new Map<string, WaitNote>();
  private readonly running = new Map<string, number>();
  private lastOutput = Date.now();
  private drawn = false;
  private timer?: NodeJS.Timeout;
  private readonly tty: boolean;
  /** What the status says while nothing runs yet (workers starting). */
  private idleWhat = '';
  /** A wait began since the last tick: said at the next tick, so waits that begin together make one line. */
  private fresh = false;
  /** A check has begun: the start-up is over. */
  private started = false;

  /** `everyMs`: how long a log (not a terminal) may stay silent before a status line. */
  constructor(private readonly out: Out, private readonly everyMs = 10_000, private readonly now = () => Date.now()) {
    this.tty = !!out.isTTY;
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  note(n: WaitNote): void {
    const fresh = !this.waits.has(n.key);
    if (n.end) this.waits.delete(n.key);
    else this.waits.set(n.key, n);
    // A new wait is said within a second in a log too: the line names what the silence that follows is.
    if (this.tty) this.draw();
    else if (fresh && !n.end) this.fresh = true;
  }

  begin(id: string): void {
    this.running.set(id, this.now());
    this.started = true;
  }

  /** What the status line says while no check runs (e.g. Playwright's workers starting); a log hears it at the next tick. */
  idle(what: string): void {
    if (what && what !== this.idleWhat && !this.tty) this.fresh = true;
    this.idleWhat = what;
  }

  finish(id: string): void {
    this.running.delete(id);
    this.waits.delete(id);
  }

  /** Everything else the run prints goes through here, so the status line never splits it. */
  write(text: string): void {
    this.clear();
    this.out.write(text);
    this.lastOutput = this.now();
  }

  /** The status: the announced waits with their time left, else the checks running. */
  line(): string {
    const now = this.now();
    if (this.waits.size) {
      return [...this.waits.values()].map(w => {
        const left = w.untilMs === undefined ? '' : `; ${w.bound ? 'at most ' : ''}${seconds(w.untilMs - now)} left`;
        return `waiting: ${w.what}${left}`;
      }).join(' · ');
    }
    if (!this.running.size) return this.idleWhat;
    const ids = [...this.running].sort((a, b) => a[1] - b[1]);
    const shown = ids.slice(0, 3).map(([id, t]) => `${id} (${seconds(now - t)})`).join(', ');
    return `running: ${shown}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
  }

  /** Called every second: redraws the live line, or writes a status line after `everyMs` of silence. */
  tick(): void {
    if (this.tty) this.draw();
    else if (this.fresh || this.now() - this.lastOutput >= this.silence()) this.logLine();
    this.fresh = false;
  }

  /** How long a log stays silent: `everyMs`, or IDLE_EVERY_MS while the run starts and no check has begun yet. */
  private silence(): number {
    return !this.started && !this.waits.size && this.idleWhat ? Math.min(this.everyMs, IDLE_EVERY_MS) : this.everyMs;
  }

  private logLine(): void {
    const l = this.line();
    if (!l) return;
    this.out.write(`… ${l}\n`);
    this.lastOutput = this.now();
  }

  private draw(): void {
    const l = this.line();
    if (!l || this.now() - this.lastOutput < 1000 && !this.waits.size) return this.clear();
    const width = Math.max(20, (this.out.columns || 100) - 1);
    const text = `… ${l}`;
    this.out.write(`\r\u001b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    this.drawn = true;
  }

  private clear(): void {
    if (!this.drawn) return;
    this.out.write('\r\u001b[K');
    this.drawn = false;
  }
}
