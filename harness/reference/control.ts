// The reference's control API (docs/control-api.md), mounted by the server at
// /control: POST /checkouts starts a checkout whose statuses become webhooks
// under spec section 6; GET /health tells the time scale; GET
// /checkouts/{id}/attempts (an addition) is the reference's own attempt log for
// one checkout, so a test can compare it with what its receiver saw.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sequenceFinding } from '../contracts/rules.ts';
import type { Clock } from './clock.ts';
import { parseCheckoutRequest, type CheckoutRequest } from './dispatcher/checkout-request.ts';
import { startCheckout, type RunningCheckout } from './dispatcher/checkout.ts';
import { Dispatcher, type EventRecord, type ReferenceAttempt, type WebhookTarget } from './dispatcher/index.ts';
import type { CatalogName } from './catalog-names.ts';

export type { EventRecord, ReferenceAttempt, WebhookTarget } from './dispatcher/index.ts';

export interface ControlOptions {
  clock: Clock;
  /** Fault and quirk names of catalog.yaml; only the webhook ones and `extra-fields` matter here. */
  faults: Set<CatalogName>;
  /** The organisation's registered webhook (spec 5.4), used when a request names none. */
  defaultWebhook?: WebhookTarget;
}

export interface Control {
  /** Serves one request; `subpath` is the path below the control API's mount point, e.g. '/checkouts'. */
  handle(req: IncomingMessage, res: ServerResponse, subpath: string): Promise<void>;
  /** Every delivery attempt so far, in the order they ended. */
  attempts(): ReferenceAttempt[];
  /** Every event so far and where it stands (pending, delivered, dropped). */
  events(): EventRecord[];
  /** Resolves once every status of the checkout (of every checkout so far, without an id) became an event that was delivered or dropped. */
  settled(checkoutId?: string): Promise<void>;
  /** Stops creating events, aborts requests in flight and closes connections. */
  close(): Promise<void>;
}

/** Arbitrary: far above any checkout request, small enough that a stray upload cannot hurt. */
const MAX_BODY_BYTES = 64 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<{ body?: unknown; error?: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  // An oversized body is read to its end (not kept), so the 400 can still be answered on the connection.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) return { error: `the body is larger than ${MAX_BODY_BYTES} bytes` };
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { error: 'the body is not JSON' };
  }
}

/** The statuses up to the first step spec 3.1 forbids (all of them when none is forbidden); STARTED alone when the first is. */
function legalPrefix(statuses: string[]): string[] {
  const finding = sequenceFinding(statuses);
  if (!finding) return statuses;
  return finding.index > 0 ? statuses.slice(0, finding.index) : ['STARTED'];
}

/** The request without the optional fields added after the first agreed ones. */
function withoutExtensions(r: CheckoutRequest): CheckoutRequest {
  const { sca: _sca, endToEndId: _e2e, referenceId: _ref, ...first } = r;
  return first;
}

export function createControl(options: ControlOptions): Control {
  const { clock, faults, defaultWebhook } = options;
  const dispatcher = new Dispatcher(clock, faults);
  const checkouts = new Map<string, RunningCheckout>();
  const allowForbiddenSequences = faults.has('webhook-forbidden-sequence');
  // Quirk `control-forbidden-legal`: a forbidden request is accepted, but only its legal start is delivered.
  const legalPrefixOnly = faults.has('control-forbidden-legal') && !allowForbiddenSequences;
  const firstFieldsOnly = faults.has('control-first-fields');

  async function createCheckout(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { body, error } = await readJson(req);
    if (error) return sendJson(res, 400, { error: 'invalid-request', reason: error });
    const parsed = parseCheckoutRequest(body, { defaultWebhook, allowForbiddenSequences: allowForbiddenSequences || legalPrefixOnly });
    if ('error' in parsed) return sendJson(res, 400, parsed);
    if (legalPrefixOnly) parsed.statuses = legalPrefix(parsed.statuses);
    // Quirk `control-first-fields`: the optional sca, endToEndId and referenceId are ignored, and so not echoed.
    const taken = firstFieldsOnly ? withoutExtensions(parsed) : parsed;
    const checkout = startCheckout(taken, { clock, dispatcher, faults });
    checkouts.set(checkout.id, checkout);
    // The optional fields taken are echoed, so a client can tell they were honoured (docs/control-api.md).
    const { sca, endToEndId, referenceId } = taken;
    sendJson(res, 201, { id: checkout.id, ...(sca ? { sca } : {}), ...(endToEndId ? { endToEndId } : {}), ...(referenceId ? { referenceId } : {}) });
  }

  function checkoutView(id: string, withAttempts: boolean): unknown {
    const c = checkouts.get(id)!;
    const { webhook, ...request } = c.request;
    return {
      id, ...request, webhook: { url: webhook.url }, createdAtMs: c.createdAtMs,
      events: dispatcher.events(id),
      ...(withAttempts ? { attempts: dispatcher.attempts(id) } : {}),
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, subpath: string): Promise<void> {
    try {
      await route(req, res, subpath);
    } catch (e) {
      // A bug here must not take the reference down; the caller sees what went wrong.
      if (!res.headersSent) sendJson(res, 500, { error: 'internal', reason: `the control API failed: ${(e as Error)?.message ?? e}` });
      else res.destroy();
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse, subpath: string): Promise<void> {
    const path = ('/' + subpath.replace(/^\/+/, '')).split('?')[0].replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const allow = (methods: string) => {
      res.setHeader('allow', methods);
      sendJson(res, 405, { error: 'method-not-allowed', reason: `${path} answers ${methods} only` });
    };
    if (path === '/health') return method === 'GET' ? sendJson(res, 200, { timeScale: clock.scale }) : allow('GET');
    if (path === '/checkouts') return method === 'POST' ? createCheckout(req, res) : allow('POST');
    const m = /^\/checkouts\/([^/]+)(\/attempts)?$/.exec(path);
    if (m) {
      const id = decodeURIComponent(m[1]);
      if (method !== 'GET') return allow('GET');
      if (!checkouts.has(id)) return sendJson(res, 404, { error: 'not-found', reason: `no checkout ${id} was created here` });
      return sendJson(res, 200, checkoutView(id, Boolean(m[2])));
    }
    sendJson(res, 404, { error: 'not-found',
      reason: `the control API has POST /checkouts, GET /checkouts/{id}, GET /checkouts/{id}/attempts and GET /health, not ${path}` });
  }

  return {
    handle,
    attempts: () => dispatcher.attempts(),
    events: () => dispatcher.events(),
    async settled(id) {
      const which = id === undefined ? [...checkouts.values()] : [checkouts.get(id)].filter(c => c !== undefined);
      await Promise.all(which.map(c => c.allCreated));
      await dispatcher.settled(id);
    },
    async close() {
      for (const c of checkouts.values()) c.cancel();
      await dispatcher.close();
    },
  };
}
