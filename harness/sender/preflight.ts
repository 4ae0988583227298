// Before the plan line: can the receiver be reached at all? A refused
// connection, an unknown host or a refused certificate is a harness error
// (exit 2, one sentence naming the fix), never a failed check. Any HTTP answer,
// whatever its status, means the receiver is there.
import { HarnessError, unreachableError } from '../errors.ts';
import type { Transport } from './transport.ts';

const TLS = /CERT|SSL|TLS|SELF_SIGNED|ERR_TLS|EPROTO/;

export async function preflight(t: Transport, url: string, insecure: boolean): Promise<void> {
  const d = await t.get(url, 'pre-flight');
  if (d.status !== undefined) return;
  const e = d.cause;
  const code = String((e as NodeJS.ErrnoException | undefined)?.code ?? ((e?.cause as NodeJS.ErrnoException | undefined)?.code) ?? '');
  // Connected, but no answer to a plain GET within the wait: the checks will judge the receiver's answers.
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return;
  if (TLS.test(code) || TLS.test(e?.message ?? '')) {
    const fix = insecure
      ? 'check that the URL uses https:// only where the receiver speaks TLS'
      : 'install a certificate a public authority signed, or pass --insecure to accept a self-signed one in a test setup';
    throw new HarnessError('PIS_TLS', `The TLS connection to the receiver at ${url} failed (${code || e?.message}): ${fix}.`, { cause: e });
  }
  throw unreachableError(e, 'webhook receiver', url);
}
