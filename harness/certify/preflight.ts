// Before the first delivery: can the receiver be reached at all? A refused
// connection, an unknown host or a refused certificate is a harness error
// (exit 2, one sentence naming the fix), never a failed check.
// Only a TCP (and TLS) handshake is made, no HTTP request: a receiver that
// parses every request body as JSON could die on an empty GET, and that would
// then be blamed on every check that follows.
import { connect as tcp, type Socket } from 'node:net';
import { connect as tls } from 'node:tls';
import { HarnessError, unreachableError } from '../errors.ts';

// Arbitrary: long enough for a slow network, short enough that a wrong address is reported quickly.
const CONNECT_TIMEOUT_MS = 10_000;
const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|EPROTO|ERR_SSL/;

export async function preflight(url: string, insecure: boolean): Promise<void> {
  const u = new URL(url);
  const https = u.protocol === 'https:';
  const port = Number(u.port || (https ? 443 : 80));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const error = await new Promise<NodeJS.ErrnoException | undefined>(resolve => {
    const socket: Socket = https
      ? tls({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host, rejectUnauthorized: !insecure, ALPNProtocols: ['http/1.1'] })
      : tcp({ host, port });
    const done = (e?: NodeJS.ErrnoException) => { clearTimeout(timer); socket.destroy(); resolve(e); };
    const timer = setTimeout(() => done(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_MS);
    socket.once(https ? 'secureConnect' : 'connect', () => done());
    socket.once('error', e => done(e));
  });
  if (!error) return;
  const code = String(error.code ?? '');
  if (https && (TLS_CODES.test(code) || TLS_CODES.test(error.message))) {
    const fix = /EPROTO|wrong version|ERR_SSL/.test(code + error.message)
      ? 'the server does not seem to speak TLS there; use http:// or fix its TLS setup'
      : insecure ? 'fix the server\'s TLS setup'
      : 'install a certificate a public authority signed, or pass --insecure to accept a self-signed one in a test setup';
    throw new HarnessError('PIS_TLS', `The TLS connection to the receiver at ${url} failed (${code || error.message}): ${fix}.`, { cause: error });
  }
  throw unreachableError(error, 'webhook receiver', url);
}
