// `run --api-version detect`: the highest API version (spec 9) the target
// answers to, found before the suites start. It probes what tells the
// versions apart: sessions (3.0.0) or a consent of its own before them, then
// the later additions on each side of that rename (scheduled products 3.1.0
// and 3.2.0; bank by id and domestic payments 2.0.0, POST /fundsconfirmations
// 1.0.2, POST /authorize 1.0.1). An operation is there when it answers
// anything but 404 or 405: without consent a real one refuses, it does not
// vanish. 3.0.0 and 3.0.1 differ only in x-psu-id, which cannot be probed, so
// both read as 3.0.1 (the suites run the same checks at either).
import { Agent, type Dispatcher } from 'undici';
import { exchange, type ExchangeResponse } from '../http/exchange.ts';
import { HarnessError } from '../errors.ts';
import type { Redactor } from '../report/redact.ts';
import type { ApiVersion } from '../contracts/api-versions.ts';
import type { TargetConfig } from './config.ts';
import { fillPath, headersAt, joinUrl, pathsAt, type PathName } from './profile.ts';

/** Each probe gives up after this long (arbitrary: as the pre-flight's calls, a target answers these at once). */
const CALL_TIMEOUT_MS = 3000;

interface ProbeFinding {
  /** The version whose addition the probe looks for. */
  version: ApiVersion;
  request: string;
  /** The answer's status, or why none came. */
  answer: number | string;
  /** The operation is there (any answer but 404 and 405). */
  present: boolean;
}

export interface Detection {
  version: ApiVersion;
  /** One sentence: what answered and what did not. */
  why: string;
  /** What results.json records under selection.apiVersionDetected. */
  findings: { version: ApiVersion; why: string; probes: ProbeFinding[]; supportedServices: string[] };
}

type Body = Record<string, unknown>;

class Prober {
  readonly probes: ProbeFinding[] = [];
  constructor(private readonly cfg: TargetConfig, private readonly token: string, private readonly redactor: Redactor,
    private readonly dispatcher: Dispatcher) {}

  async send(method: string, path: string, opts: { body?: Body; headers?: Record<string, string> } = {}): Promise<ExchangeResponse | string> {
    const { cfg } = this;
    const ex = await exchange({
      method, url: joinUrl(cfg.baseUrl!, path), dispatcher: this.dispatcher, timeoutMs: CALL_TIMEOUT_MS, deadlineMs: CALL_TIMEOUT_MS,
      headers: { accept: 'application/json', authorization: `${cfg.headers.authScheme} ${this.token}`, [cfg.headers.device]: cfg.deviceId, ...opts.headers },
      ...(opts.body ? { body: opts.body } : {}),
    }, this.redactor);
    return ex.response ?? `no answer (${ex.evidence.error ?? 'error'})`;
  }

  /** Whether the operation of `version` is there; recorded as a finding. */
  async present(version: ApiVersion, method: string, path: string, opts: { body?: Body; headers?: Record<string, string> } = {}): Promise<boolean> {
    const res = await this.send(method, path, opts);
    const answer = typeof res === 'string' ? res : res.status;
    const present = typeof res !== 'string' && res.status !== 404 && res.status !== 405;
    this.probes.push({ version, request: `${method} ${path}`, answer, present });
    return present;
  }
}

const obj = (r: ExchangeResponse | string): Body | undefined =>
  typeof r !== 'string' && r.status >= 200 && r.status < 300 && r.json && typeof r.json === 'object' && !Array.isArray(r.json) ? r.json as Body : undefined;

function sentence(p: ProbeFinding): string {
  return `${p.request} answered ${p.answer} (${p.present ? `there: ${p.version}` : `not there: no ${p.version}`})`;
}

export async function detectApiVersion(cfg: TargetConfig, redactor: Redactor, accessToken: string | undefined): Promise<Detection> {
  if (!cfg.baseUrl)
    throw new HarnessError('PIS_MISSING_OPTION', '--api-version detect probes the API, and no base URL was given: give --base-url, or --api-version V.');
  if (!accessToken)
    throw new HarnessError('PIS_BAD_CONFIG', 'The token endpoint issued no access_token, so the API could not be probed for its version: '
      + 'give --api-version V.');
  const dispatcher = new Agent({ connect: { timeout: CALL_TIMEOUT_MS }, headersTimeout: CALL_TIMEOUT_MS, bodyTimeout: CALL_TIMEOUT_MS });
  const p = new Prober(cfg, accessToken, redactor, dispatcher);
  // Paths that 3.0.0 did not rename come from the config; the renamed ones are each side's defaults.
  const path = (name: PathName, v: ApiVersion, values: Record<string, string> = {}) =>
    fillPath(name === 'sessions' || name === 'confirmFunds' ? pathsAt(v)[name] : cfg.paths[name], values);
  try {
    const banks = await p.send('GET', path('banks', '3.2.0'));
    const list = typeof banks !== 'string' && Array.isArray(banks.json) ? banks.json as Body[] : [];
    const bankId = list.map(b => b?.id).find((id): id is string => typeof id === 'string' && id !== '');
    const seen = (r: ExchangeResponse | string) => typeof r === 'string' ? r : r.status;
    if (!bankId)
      throw new HarnessError('PIS_BAD_CONFIG', `GET ${path('banks', '3.2.0')} answered ${seen(banks)} without a bank, `
        + 'so the API version could not be probed: give --api-version V.');
    const servicesOf = (b: Body) => Array.isArray(b?.supportedServices)
      ? b.supportedServices.filter((s): s is string => typeof s === 'string') : [];
    const services = [...new Set(list.flatMap(servicesOf))];

    let version: ApiVersion;
    const session = obj(await p.send('POST', path('sessions', '3.2.0'), { body: { bankId } }))?.sessionId;
    if (typeof session === 'string' && session) {
      p.probes.push({ version: '3.0.0', request: `POST ${path('sessions', '3.2.0')}`, answer: 'a sessionId', present: true });
      const inSession = { headers: { [cfg.headers.session]: session }, body: {} };
      const domestic = await p.present('3.1.0', 'POST', path('payments', '3.2.0', { product: 'domestic-scheduled-transfer' }), inSession);
      const sepa = await p.present('3.2.0', 'POST', path('payments', '3.2.0', { product: 'sepa-scheduled-credit' }), inSession);
      version = sepa || services.includes('sepa-scheduled-credit') ? '3.2.0'
        : domestic || services.includes('domestic-scheduled-transfer') ? '3.1.0' : '3.0.1';
    } else {
      const started = await p.send('POST', path('sessions', '2.0.0'), { body: { bankId, scope: 'accounts' } });
      const consent = obj(started)?.consentId;
      if (typeof consent !== 'string' || !consent) {
        throw new HarnessError('PIS_BAD_CONFIG', `Neither POST ${path('sessions', '3.2.0')} (3.0.0 and later) `
          + `nor POST ${path('sessions', '2.0.0')} (before 3.0.0) started anything at bank ${bankId} (answers ${seen(started)}), `
          + 'so the API version could not be told: give --api-version V, or check --base-url.');
      }
      p.probes.push({ version: '1.0.0', request: `POST ${path('sessions', '2.0.0')}`, answer: 'a consentId', present: true });
      const withConsent = { headers: { [headersAt('2.0.0').session]: consent }, body: {} };
      const v2 = await p.present('2.0.0', 'GET', path('bank', '2.0.0', { bankId }));
      const v102 = await p.present('1.0.2', 'POST', path('confirmFunds', '2.0.0'), withConsent);
      const authorize = path('authorize', '2.0.0', { product: 'sepa-credit', paymentId: 'pis-conformance-probe' });
      const v101 = await p.present('1.0.1', 'POST', authorize, withConsent);
      version = v2 ? '2.0.0' : v102 ? '1.0.2' : v101 ? '1.0.1' : '1.0.0';
    }
    const listed = services.filter(s => s === 'domestic-scheduled-transfer' || s === 'sepa-scheduled-credit');
    const parts = [
      ...p.probes.map(sentence),
      ...(listed.length ? [`a bank lists ${listed.join(' and ')}`] : []),
      ...(version === '3.0.1' ? ['3.0.0 and 3.0.1 look alike from outside (x-psu-id cannot be probed) and run the same checks'] : []),
    ];
    const why = `${parts.join('; ')}: the highest version it answers to is ${version}.`;
    return { version, why, findings: { version, why, probes: p.probes, supportedServices: services } };
  } finally {
    await dispatcher.close();
  }
}
