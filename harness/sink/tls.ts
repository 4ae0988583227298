// A self-signed certificate for the sink's HTTPS mode (spec 4.3: the service
// calls the webhook over HTTPS), generated in memory for one run. selfsigned
// (and the x509 packages under it, some 60 modules) loads only when asked:
// every run starts the sink, few over HTTPS.
import { HarnessError } from '../errors.ts';

export async function selfSignedCertificate(host: string): Promise<{ cert: string; key: string }> {
  try {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: host }], {
      days: 7, keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' },
        ...(/^[\d.]+$/.test(host) ? [{ type: 7, ip: host }] : [{ type: 2, value: host }])] }],
    } as Parameters<typeof import('selfsigned').generate>[1]);
    return { cert: pems.cert, key: pems.private };
  } catch (e) {
    throw new HarnessError('PIS_TLS',
      `Could not generate a self-signed certificate for the sink (${(e as Error).message}): give one with --tls-cert and --tls-key.`, { cause: e });
  }
}
