// receiver.accepts.over-https: spec 4.3, the webhook URL is "registered without
// the https:// part; the call is made over HTTPS". A receiver the service is to
// reach serves HTTPS with a certificate the service can verify. Judged from
// the run itself: an http:// URL, or one that needed --insecure, cannot show
// it. Registered at should: the spec states how the service calls, and a
// certification over plain HTTP is a fair step while a receiver is being built.
import type { CheckDef } from '../report/check.ts';
import type { Outcome } from './check.ts';
import type { SenderOptions } from './options.ts';

export const OVER_HTTPS: CheckDef = {
  id: 'receiver.accepts.over-https', requirements: ['R4.3-receiver-https'], spec: '4.3',
  title: 'The receiver is served over HTTPS with a certificate that verifies',
  quote: 'registered without the https:// part; the call is made over HTTPS',
};

/** Runs after the pre-flight, which made the TLS handshake (and verified the certificate unless --insecure). */
export function overHttps(opts: Pick<SenderOptions, 'url' | 'insecure'>): Outcome {
  const https = new URL(opts.url).protocol === 'https:';
  if (https && !opts.insecure) return { status: 'passed', message: 'the TLS handshake verified the receiver\'s certificate' };
  const seen = https ? 'https:// with --insecure (the certificate was not verified)' : 'http://';
  return {
    status: 'failed', expected: 'an https:// URL whose certificate verifies', seen,
    message: `the receiver was certified at ${seen}; the service calls over HTTPS and verifies the certificate, so certify the address it will call`,
  };
}
