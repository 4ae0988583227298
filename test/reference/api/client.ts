// A tiny client of the reference for its own tests: token, API calls with the
// profile's headers, and a session with consent already given. Tests talk to
// the reference over HTTP only, as the suites do.
import { startReference, type Reference, type ReferenceOptions } from '../../../harness/reference/index.ts';

export interface Reply { status: number; headers: Headers; json: any; text: string }

async function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) });
  return reply(res);
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: res.status, headers: res.headers, json, text };
}

export class RefClient {
  token = '';
  sessionId = '';

  constructor(readonly ref: Reference) {}

  tokenRequest(form: Record<string, string>, headers?: Record<string, string>): Promise<Reply> {
    return post(this.ref.tokenUrl, form, headers);
  }

  async login(): Promise<Reply> {
    const r = await this.tokenRequest({ grant_type: 'client_credentials', client_id: this.ref.clientId, client_secret: this.ref.clientSecret });
    if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
    this.token = r.json.access_token;
    return r;
  }

  /** An API call with bearer token, x-device-id and (when set) x-session-id; `headers` override or remove (undefined) them. */
  async call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string | undefined> } = {}): Promise<Reply> {
    const base: Record<string, string | undefined> = {
      authorization: this.token ? `Bearer ${this.token}` : undefined,
      'x-device-id': 'test-device',
      'x-session-id': this.sessionId || undefined,
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    };
    const headers = Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
    const res = await fetch(`${this.ref.baseUrl}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    return reply(res);
  }

  async newSession(bankId: string): Promise<string> {
    const r = await this.call('POST', '/session', { body: { bankId } });
    if (r.status !== 201) throw new Error(`session failed: ${r.status} ${r.text}`);
    // The renamed-fields quirk names it `session`.
    this.sessionId = r.json.sessionId ?? r.json.session;
    return this.sessionId;
  }

  /** Follows the consent href headless, as a suite would. */
  async consent(scope = 'accounts', headers: Record<string, string> = {}): Promise<Response> {
    const r = await this.call('GET', `/consent/${this.sessionId}?scope=${scope}`, { headers: { 'x-psu-ip-address': '192.0.2.10', ...headers } });
    if (r.status !== 200) throw new Error(`consent URL failed: ${r.status} ${r.text}`);
    const link = r.json.links?.[0] ?? r.json.actions[0];
    return fetch(link.href ?? link.url, { redirect: 'manual' });
  }

  /** Token, session at `bankId`, consent given. */
  async ready(bankId: string): Promise<this> {
    if (!this.token) await this.login();
    await this.newSession(bankId);
    await this.consent();
    return this;
  }
}

/** Starts a reference with the given options and a logged-in client; close it with `ref.close()`. */
export async function withReference(opts: ReferenceOptions = {}): Promise<{ ref: Reference; client: RefClient }> {
  const ref = await startReference({ timeScale: 0.01, ...opts });
  const client = new RefClient(ref);
  await client.login();
  return { ref, client };
}

/** A valid payment body per product (docs/profile.md "payment request"). */
export function paymentBody(product: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const scheduled = product.includes('scheduled');
  return {
    debtorAccount: product === 'domestic-scheduled-transfer' ? { accountScheme: 'BBAN', identifier: '86011117947' } : { iban: 'NO9386011117947' },
    creditorAccount: product === 'domestic-scheduled-transfer' ? { accountScheme: 'GIRO', identifier: '12345678903' } : { iban: 'NO7112345678903' },
    debtorName: 'Kari Nordmann', creditorName: 'Ola Nordmann',
    instrumentedAmount: '10.00', currency: 'NOK', remittanceInformationUnstructured: 'test',
    endToEndIdentification: 'e2e-1',
    ...(scheduled ? { requestedExecutionDate: '2026-12-01' } : {}),
    ...extra,
  };
}
