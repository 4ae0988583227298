// The command line: picks the command and hands over to its file in cli/.
// Harness errors (bad flags, unreachable target, port in use) end here: one
// sentence on stderr, exit status 2 (docs/cli.md).
import { errorLine, isHarnessError } from './errors.ts';
import type { Command } from './cli/command.ts';
import { installStopSignals } from './stop.ts';
import { environmentHelp } from './cli/environment.ts';
import { nearest } from './flag-values.ts';

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ command: Command }> }> = {
  'run': { summary: 'Run the conformance suites against a target (default: the bundled reference).', load: () => import('./cli/run.ts') },
  'certify-receiver': { summary: "Certify a merchant's webhook receiver by sending it real deliveries.", load: () => import('./cli/certify-receiver.ts') },
  'sink': { summary: 'Receive webhooks from a sender the harness cannot drive, probe and judge them.', load: () => import('./cli/sink.ts') },
  'serve-reference': { summary: 'Run the reference implementation alone and print its URLs.', load: () => import('./cli/serve-reference.ts') },
  'validate': { summary: 'Validate JSON or JSON-lines files of webhook bodies or token responses.', load: () => import('./cli/validate.ts') },
  'report': { summary: 'Rebuild the HTML report of a run from its results.json / results.jsonl.', load: () => import('./cli/report.ts') },
  'coverage': { summary: 'Print every requirement of the spec, the checks that enforce it and the proofs they can fail.',
    load: () => import('./cli/coverage.ts') },
  'keygen': { summary: 'Make an Ed25519 or ECDSA P-256 key pair to sign certificates with.', load: () => import('./cli/keygen.ts') },
  'attest': { summary: 'Sign a report folder: an in-toto test-result statement in a DSSE envelope.', load: () => import('./cli/attest.ts') },
  'verify': { summary: 'Verify a signed certificate: signature, report files, verdict, and a policy.', load: () => import('./cli/verify.ts') },
  'matrix': { summary: 'One static HTML page of verified certificates: implementations by API version.', load: () => import('./cli/matrix.ts') },
};

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}`);
  return ['Usage: pis-conformance <command> [options]', '', 'Commands:', ...rows, '',
    "Run 'pis-conformance help <command>' (or '<command> --help') for a command's options; --version prints the version.",
    '', environmentHelp()].join('\n');
}

function unknownCommand(name: string): number {
  const near = nearest(name, Object.keys(COMMANDS));
  process.stderr.write(errorLine(undefined, 'PIS_UNKNOWN_COMMAND',
    `unknown command '${name}': ${near ? `did you mean '${near}'? ` : ''}use one of ${Object.keys(COMMANDS).join(', ')} (see --help).`) + '\n');
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    // `help <command>` is `<command> --help`.
    if (name === 'help' && rest[0]) return COMMANDS[rest[0]] ? main([rest[0], '--help']) : unknownCommand(rest[0]);
    process.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    const { TOOL } = await import('./version.ts');
    process.stdout.write(`${TOOL.name} ${TOOL.version}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) return unknownCommand(name);
  installStopSignals(name);
  try {
    const { command } = await entry.load();
    return await command.run(rest);
  } catch (e) {
    if (isHarnessError(e)) {
      process.stderr.write(errorLine(name, e.code, e.message) + '\n');
      if (process.env.PIS_DEBUG) process.stderr.write(`${e.stack}\n`);
      return 2;
    }
    process.stderr.write(errorLine(name, 'PIS_INTERNAL',
      `internal error: ${(e as Error)?.message ?? e}; this is a bug of the harness, please report it with PIS_DEBUG=1 output.`) + '\n');
    if (process.env.PIS_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
    return 2;
  }
}

// A reader that hung up (`run ... | head`) is no error of ours: the output ends
// quietly and the command goes on to write its report.
for (const s of [process.stdout, process.stderr]) s.on('error', () => { /* EPIPE: the reader left */ });

// Commands that leave servers running (serve-reference, sink) resolve only when
// they are done, so exiting here is safe once stdout and stderr are flushed: a
// bare process.exit() cuts piped output short.
function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = () => { if (--pending === 0) process.exit(code); };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(exitAfterFlush, () => exitAfterFlush(2));
