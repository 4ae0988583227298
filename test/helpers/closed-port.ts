import { connect } from 'node:net';
import { readFileSync } from 'node:fs';

/**
 * A loopback port nothing listens on, for "cannot reach" tests.
 *
 * A port bound and closed again is free for the next `listen(0)` of any test
 * running beside this one, which then answers where the test expected a
 * refusal (CI saw exactly that: exit 1 instead of 2). So the port is taken
 * below the kernel's ephemeral range, which `listen(0)` never hands out, and
 * a connect proves it refused.
 */
export async function closedPort(): Promise<number> {
  const low = ephemeralLow();
  for (let port = Math.min(low, 32768) - 1; port > 1024; port -= 97) {
    if (await refuses(port)) return port;
  }
  throw new Error('no closed loopback port found below the ephemeral range');
}

function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && low > 1025) return low;
  } catch { /* not Linux: take the IANA range's start */ }
  return 49152;
}

function refuses(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => { s.destroy(); resolve(false); });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}
