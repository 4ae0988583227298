// Every harness error in one place, each with a stable code and a sentence that
// names the fix (after undici's lib/core/errors.js). A harness error means the
// run could not be made: exit status 2, never a failed check. The code is
// printed with the sentence ("pis-conformance run: [PIS_BAD_FLAG] ..."), so
// scripts and tests match the code, never the wording; docs/errors.md lists
// every code (a test keeps the two in step).
import { printable } from './printable.ts';

export const ERROR_CODES = {
  PIS_BAD_FLAG: 'a command-line flag is unknown or has a bad value',
  PIS_BAD_CONFIG: 'the YAML config file is missing, unreadable or invalid, or a target URL points at something else',
  PIS_MISSING_OPTION: 'a required option was not given',
  PIS_UNREACHABLE: 'a target URL could not be reached',
  PIS_AUTH_REJECTED: 'the target refused the client credentials on the first call',
  PIS_PORT_IN_USE: 'a port the harness must listen on is taken',
  PIS_TLS: 'a TLS connection or certificate could not be set up',
  PIS_BAD_INPUT: 'an input file is missing, empty or not JSON',
  PIS_BAD_KEY: 'a signing or public key is unreadable, not PEM, or neither Ed25519 nor ECDSA P-256',
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

/** TLS failures that say the server does not speak TLS at all (an https:// URL on a plain HTTP port). */
const NOT_TLS = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|UNKNOWN_PROTOCOL|wrong version number/;
/** Failures of the certificate itself (expired, self-signed, unknown authority, wrong host name). */
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME/;

/**
 * Turns a connection failure to a target into a sentence that names the fix:
 * a certificate the machine does not trust, a URL whose scheme does not match
 * what the server speaks (https:// to plain HTTP, http:// to an HTTPS port),
 * nothing listening, a name that does not resolve.
 */
export function unreachableError(e: unknown, what: string, url: string): HarnessError {
  const cause = (e as { cause?: NodeJS.ErrnoException })?.cause ?? (e as NodeJS.ErrnoException);
  const code = cause?.code ?? '';
  const said = `${code} ${cause?.message ?? ''}`;
  if (url.startsWith('https:') && NOT_TLS.test(said))
    return new HarnessError('PIS_TLS', `The ${what} at ${url} does not speak TLS (${code || 'no TLS handshake'}): ` +
      'the server answers plain HTTP there; use http:// in the URL, or the port where it serves HTTPS.', { cause: e });
  if (CERTIFICATE.test(said))
    return new HarnessError('PIS_TLS', `The ${what} at ${url} presented a TLS certificate this machine does not trust (${code}): ` +
      'for a test server with its own certificate authority, set NODE_EXTRA_CA_CERTS to that authority\'s PEM file; ' +
      'otherwise fix the server\'s certificate (its name, dates and chain).', { cause: e });
  if (url.startsWith('http:') && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET'))
    return new HarnessError('PIS_UNREACHABLE', `The ${what} at ${url} closed the connection without an answer (${code}): ` +
      'if the server speaks HTTPS there, use https:// in the URL; otherwise check that it is the right server.', { cause: e });
  const why = code === 'ECONNREFUSED' ? 'nothing is listening there'
    : code === 'ENOTFOUND' ? 'the host name does not resolve'
    : /TIMEOUT/.test(code) ? 'it did not answer in time'
    : code || (cause?.message ?? String(e));
  return new HarnessError(/SSL|TLS/.test(code) ? 'PIS_TLS' : 'PIS_UNREACHABLE',
    `Cannot reach the ${what} at ${url} (${why}): check the URL and that the server is running.`, { cause: e });
}
