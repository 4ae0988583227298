// Random strings of the reference (tokens, bank-page tickets): CSPRNG bytes as
// base64url, taken from a pool refilled by one randomFillSync call, as Node's
// own randomUUID() does. A randomBytes() call per token cost a few
// microseconds each; a slice of the pool costs a tenth of that.
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` random bytes as base64url, like randomBytes(bytes).toString('base64url'); bytes never exceeds the pool. */
export function randomBase64url(bytes: number): string {
  if (bytes > POOL_BYTES) throw new RangeError(`randomBase64url takes at most ${POOL_BYTES} bytes, not ${bytes}`);
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const text = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return text;
}
