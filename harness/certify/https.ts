// receiver.accepts.over-https: spec 4.3, the webhook URL is "registered without
// the https:// part; the call is made over HTTPS". A receiver the service is to
// reach serves HTTPS with a certificate the service can verify. Judged from
// the run itself: over https:// the pre-flight made the TLS handshake, and
// verified the certificate unless --insecure. A certification at http:// is
// the usual step while a receiver is built (on loopback, behind a proxy that
// ends TLS): it says so once at the top, and the check is not applicable
// rather than a finding on every such run. Registered at should: the spec
// states how the service calls.
import type { CheckDef } from '../check/def.ts';
import { failed, notApplicable, passed, type Outcome } from '../check/outcome.ts';
import type { SenderOptions } from './options.ts';

export const OVER_HTTPS: CheckDef = {
  id: 'receiver.accepts.over-https', requirements: ['R4.3-receiver-https'], spec: '4.3',
  title: 'The receiver is served over HTTPS with a certificate that verifies',
  quote: 'registered without the https:// part; the call is made over HTTPS',
};

const PLAIN = 'HTTPS was not used: the receiver was certified at http://, while the service calls over HTTPS and verifies the certificate (spec 4.3); ' +
  'before going live, certify the https:// address it will call';

/** The line said once at the top of a run at http://, or undefined. */
export function httpsNote(opts: Pick<SenderOptions, 'url'>): string | undefined {
  return new URL(opts.url).protocol === 'https:' ? undefined : PLAIN;
}

/** Runs after the pre-flight, which made the TLS handshake (and verified the certificate unless --insecure). */
export function overHttps(opts: Pick<SenderOptions, 'url' | 'insecure'>): Outcome {
  if (httpsNote(opts)) return notApplicable(`not applicable: ${PLAIN}`);
  if (!opts.insecure) return passed('the TLS handshake verified the receiver\'s certificate');
  const seen = 'https:// with --insecure (the certificate was not verified)';
  return failed(`the receiver was certified at ${seen}; the service verifies the certificate, so certify with one it can verify`,
    'an https:// URL whose certificate verifies', seen);
}
