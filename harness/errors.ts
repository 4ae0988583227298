// Every harness error in one place, each with a stable code and a sentence that
// names the fix (after undici's lib/core/errors.js). A harness error means the
// run could not be made: exit status 2, never a failed check. The code is
// printed with the sentence ("pis-conformance run: [PIS_BAD_FLAG] ..."), so
// scripts and tests match the code, never the wording; docs/errors.md lists
// every code (a test keeps the two in step).
import { printable } from './printable.ts';

export const ERROR_CODES = {
  PIS_BAD_FLAG: 'a command-line flag is unknown or has a bad value',
  PIS_BAD_CONFIG: 'the YAML config file is missing, unreadable or invalid',
  PIS_MISSING_OPTION: 'a required option was not given',
  PIS_UNREACHABLE: 'a target URL could not be reached',
  PIS_AUTH_REJECTED: 'the target refused the client credentials on the first call',
  PIS_PORT_IN_USE: 'a port the harness must listen on is taken',
  PIS_TLS: 'a TLS connection or certificate could not be set up',
  PIS_BAD_INPUT: 'an input file is missing, empty or not JSON',
  PIS_UNKNOWN_COMMAND: 'the command does not exist',
  PIS_INTERNAL: 'the harness itself failed',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class HarnessError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HarnessError';
    this.code = code;
  }
}

/** The one line a command prints for an error: the command, the code, the sentence. */
export function errorLine(command: string | undefined, code: ErrorCode, sentence: string): string {
  return `pis-conformance${command ? ' ' + command : ''}: [${code}] ${printable(sentence)}`;
}

export function isHarnessError(e: unknown): e is HarnessError {
  return e instanceof HarnessError;
}

/** Turns a listen() failure into a sentence that names the fix. */
export function listenError(e: unknown, what: string, host: string, port: number): HarnessError {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE')
    return new HarnessError('PIS_PORT_IN_USE',
      `Port ${port} on ${host} is already in use for the ${what}: pick another with the port flag, or 0 for a free one.`, { cause: e });
  if (code === 'EACCES')
    return new HarnessError('PIS_PORT_IN_USE', `Not allowed to listen on port ${port} for the ${what}: use a port above 1023.`, { cause: e });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new HarnessError('PIS_BAD_FLAG', `Cannot listen on ${host} for the ${what}: give an address of this machine, such as 127.0.0.1.`, { cause: e });
  return new HarnessError('PIS_INTERNAL', `Could not start the ${what} on ${host}:${port}: ${(e as Error)?.message ?? e}.`, { cause: e });
}

/** Turns a connection failure to a target into a sentence that names the fix. */
export function unreachableError(e: unknown, what: string, url: string): HarnessError {
  const cause = (e as { cause?: NodeJS.ErrnoException })?.cause ?? (e as NodeJS.ErrnoException);
  const code = cause?.code ?? '';
  const why = code === 'ECONNREFUSED' ? 'nothing is listening there'
    : code === 'ENOTFOUND' ? 'the host name does not resolve'
    : /TIMEOUT/.test(code) ? 'it did not answer in time'
    : /CERT|SSL|TLS|SELF_SIGNED/.test(code) ? `its TLS certificate was refused (${code})`
    : code || (cause?.message ?? String(e));
  return new HarnessError(/CERT|SSL|TLS|SELF_SIGNED/.test(code) ? 'PIS_TLS' : 'PIS_UNREACHABLE',
    `Cannot reach the ${what} at ${url} (${why}): check the URL and that the server is running.`, { cause: e });
}
