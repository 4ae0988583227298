// The one owner of SIGINT, SIGTERM and SIGHUP in a command's process.
//
// A command that can stop in order says so with onStop(): `run` lets the
// Playwright reporter write what it has, `sink` analyses and writes its report,
// `serve-reference` closes its server. The first signal calls those handlers
// and nothing else; the command then ends by itself. A command with nothing to
// save (flags, pre-flight, validate) ends at once, exit 2, with one sentence.
//
// Copies of one signal within a second count once: a terminal's Ctrl-C
// reaches every process of the foreground group, and a CI runner may send
// SIGTERM to the group and to the leader. A signal after that means "now":
// exit 2 at once, saying the report may be incomplete. Children started by
// the command end with it (see harness/runner/guard.mjs).

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = typeof STOP_SIGNALS[number];

/** Signals this soon after the first are copies of it (arbitrary: longer than any fan-out, shorter than a person's second Ctrl-C). */
const SAME_SIGNAL_MS = 1000;

const handlers = new Set<(signal: StopSignal) => void>();
let first: { signal: StopSignal; at: number } | undefined;
let command = '';

/** Exit status of a stop that could not be orderly (docs/cli.md: a signal is exit 2). */
export const INTERRUPTED_EXIT = 2;

function now(why: string): never {
  process.stderr.write(`pis-conformance${command ? ' ' + command : ''}: ${why}\n`);
  process.exit(INTERRUPTED_EXIT);
}

function onSignal(signal: StopSignal): void {
  if (first) {
    if (Date.now() - first.at < SAME_SIGNAL_MS) return;
    now(`stopped at once by a second ${signal}; the report may be incomplete.`);
  }
  first = { signal, at: Date.now() };
  if (!handlers.size) now(`stopped by ${signal} before it finished.`);
  for (const h of [...handlers]) h(signal);
}

/** Takes over the stop signals for this process (once, before the command runs). */
export function installStopSignals(name: string): void {
  command = name;
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
}

/**
 * Calls `handler` on the first stop signal (at once when one already came);
 * returns the function that unsubscribes. While no handler is subscribed a
 * signal ends the process at once.
 */
export function onStop(handler: (signal: StopSignal) => void): () => void {
  if (first) { handler(first.signal); return () => {}; }
  handlers.add(handler);
  return () => { handlers.delete(handler); };
}

/** The first stop signal received, if any. */
export function stopSignal(): StopSignal | undefined {
  return first?.signal;
}
