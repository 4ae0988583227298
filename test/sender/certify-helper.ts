// Runs a certification in-process against a sample receiver and returns its checks.
import { certify, makePlan } from '../../harness/sender/certify.ts';
import { DEFAULTS, type SenderOptions } from '../../harness/sender/options.ts';
import { Redactor } from '../../harness/report/redact.ts';
import type { CheckResult } from '../../harness/report/model.ts';
import { startReceiver } from '../fixtures/receivers/receiver.ts';

export const API_KEY = 'merchant-key-7f3a9c';

export interface Certified { checks: CheckResult[]; sent: number; planned: number }

export async function certifyFixture(fault: string | undefined, o: { timeScale: number; concurrency: number; state?: boolean; strict?: boolean }): Promise<Certified> {
  const r = await startReceiver({ apiKey: API_KEY, fault, timeScale: o.timeScale, strict: o.strict });
  try {
    const opts: SenderOptions = { url: r.url, apiKey: API_KEY, timeScale: o.timeScale, concurrency: o.concurrency,
      maxRequests: DEFAULTS.maxRequests, insecure: false, ...(o.state ? { stateUrl: r.stateUrl } : {}) };
    const checks: CheckResult[] = [];
    let sent = 0;
    const plan = makePlan(opts);
    await certify(opts, plan, new Redactor().add(API_KEY, 'PIS_WEBHOOK_API_KEY'), {
      check: c => { checks.push(c); },
      phase: (_, n) => { sent = n; },
    });
    return { checks, sent, planned: plan.size.total };
  } finally { await r.close(); }
}

export const failed = (cs: CheckResult[], level?: string) => cs.filter(c => c.status === 'failed' && (!level || c.level === level));
export const ids = (cs: CheckResult[]) => cs.map(c => c.id).join(', ');
