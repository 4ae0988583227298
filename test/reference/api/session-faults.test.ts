// Each session fault of catalog.yaml changes the behaviour it names, and the
// clean reference does not show it: the same probe runs against both (the
// consent's lifetime on a short clock of its own).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAULTS } from '../../../harness/reference/catalog.ts';
import type { Reference } from '../../../harness/reference/index.ts';
import { paymentBody, RefClient, withReference } from './client.ts';
import { describeFaultCases, type FaultCase } from '../fault-cases.ts';

const BANK = 'sparebank1-no';

const CASES: FaultCase[] = [
  {
    name: 'session-delete-ignored',
    probe: async c => {
      await c.ready(BANK);
      const d = await c.call('DELETE', `/session/${c.sessionId}`);
      return [d.status, (await c.call('GET', '/accounts')).status];
    },
    clean: [204, 510], faulty: [204, 200],
  },
  {
    name: 'session-delete-ends-bank',
    probe: async c => {
      await c.ready(BANK);
      const kept = c.sessionId;
      await c.ready(BANK);
      await c.call('DELETE', `/session/${c.sessionId}`);
      c.sessionId = kept;
      return (await c.call('GET', '/accounts')).status;
    },
    clean: 200, faulty: 510,
  },
  {
    name: 'session-status-stays-pending',
    probe: async c => { await c.ready(BANK); return (await c.call('GET', `/session/${c.sessionId}`)).json.consentStatus; },
    clean: 'VALID', faulty: 'PENDING',
  },
  {
    name: 'session-status-deleted-valid',
    probe: async c => {
      await c.ready(BANK);
      await c.call('DELETE', `/session/${c.sessionId}`);
      const r = await c.call('GET', `/session/${c.sessionId}`);
      return [r.status, r.json.consentStatus];
    },
    clean: [510, undefined], faulty: [200, 'VALID'],
  },
  {
    name: 'session-status-unknown-answered',
    probe: async c => { await c.ready(BANK); return (await c.call('GET', '/session/no-such-session')).status; },
    clean: 510, faulty: 200,
  },
  {
    name: 'session-consent-per-bank-dk',
    probe: async c => {
      const opened = [];
      for (const bank of ['danske-dk', BANK]) {
        await c.ready(bank);
        await c.newSession(bank);
        opened.push((await c.call('GET', '/accounts')).status);
      }
      return opened;
    },
    clean: [510, 510], faulty: [200, 510],
  },
  {
    name: 'session-no-consent-needed',
    probe: async c => {
      await c.newSession(BANK);
      const r = await c.call('GET', '/accounts');
      const p = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') });
      return [r.status, r.json.errorCode, p.json.errorCode];
    },
    clean: [510, '1426', '1426'], faulty: [200, undefined, '1426'],
  },
  {
    name: 'session-consent-link-relative',
    probe: async c => {
      await c.newSession(BANK);
      const href = (await c.call('GET', '/accounts')).json.links[0].href as string;
      return /^https?:\/\//.test(href);
    },
    clean: true, faulty: false,
  },
  {
    name: 'session-consent-redirect-ignored',
    probe: async c => {
      await c.newSession(BANK);
      const page = await c.consent('accounts', { 'x-redirect-url': 'https://merchant.example/back' });
      return page.headers.get('location')?.replace(/^http:\/\/[^/]+/, '');
    },
    clean: 'https://merchant.example/back', faulty: '/bank/done?what=consent',
  },
  {
    name: 'session-payments-no-consent-needed',
    probe: async c => {
      await c.newSession(BANK);
      const p = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') });
      return [p.json.errorCode === '1426', (await c.call('GET', '/accounts')).json.errorCode];
    },
    clean: [true, '1426'], faulty: [false, '1426'],
  },
  {
    name: 'session-consent-per-bank',
    probe: async c => {
      await c.ready(BANK);
      await c.newSession(BANK);
      const sibling = (await c.call('GET', '/accounts')).status;
      // Two sessions without consent at one bank: neither opens the other.
      await c.newSession('handelsbanken-se');
      await c.newSession('handelsbanken-se');
      return [sibling, (await c.call('GET', '/accounts')).status];
    },
    clean: [510, 510], faulty: [200, 510],
  },
  // The renames of 3.0.0 (spec 9), at the latest version: the operation answers under its name before 3.0.0 only.
  {
    name: 'renamed-consent-status',
    probe: async c => { await c.ready(BANK); return [(await c.call('GET', `/session/${c.sessionId}`)).status, (await c.call('GET', '/consent')).status]; },
    clean: [200, 404], faulty: [405, 200],
  },
  {
    name: 'renamed-consent-delete',
    probe: async c => {
      await c.ready(BANK);
      return [(await c.call('DELETE', '/consent')).status, (await c.call('DELETE', `/session/${c.sessionId}`)).status];
    },
    clean: [404, 204], faulty: [204, 405],
  },
  {
    name: 'renamed-consent-url',
    probe: async c => {
      await c.newSession(BANK);
      const get = await c.call('GET', `/consent/${c.sessionId}?scope=accounts`);
      return [get.status, (await c.call('POST', '/consent', { body: { scope: 'accounts' } })).status];
    },
    clean: [200, 404], faulty: [404, 200],
  },
];

describeFaultCases('session faults change exactly what they name', CASES);

describe('session faults on the clock', () => {
  it('session-no-expiry: a consent outlives its lifetime (and does not on a clean reference)', async () => {
    // Consents of 100 spec s at 1 spec s = 10 ms: 1 real second (arbitrary: short, far above timer noise).
    const opts = { timeScale: 0.01, lifetimes: { consentS: 100 } };
    const seen: string[] = [];
    // On each reference's own clock: the first use must be read before the consent's end, else it proves nothing and all is tried again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const refs = [await withReference(opts), await withReference({ ...opts, faults: ['session-no-expiry'] })];
      try {
        const one = async ({ ref, client }: { ref: Reference; client: RefClient }) => {
          const c0 = ref.clock.now();
          await client.ready(BANK);
          const c1 = ref.clock.now();
          const live = (await client.call('GET', '/accounts')).status;
          const readAt = (ref.clock.now() - c0) / 1000;
          await ref.clock.sleep(c1 + 130_000 - ref.clock.now());
          return { live, readAt, after: (await client.call('GET', '/accounts')).status };
        };
        const [clean, faulty] = await Promise.all(refs.map(one));
        seen.push(`read ${clean!.readAt.toFixed(0)} and ${faulty!.readAt.toFixed(0)} spec s after consent was asked for`);
        if (clean!.readAt >= 100 || faulty!.readAt >= 100) continue;
        assert.deepEqual([clean!.live, faulty!.live, clean!.after, faulty!.after], [200, 200, 510, 200]);
        return;
      } finally { for (const r of refs) await r.ref.close(); }
    }
    assert.fail(`the first use could not be made within the consent's lifetime three times (the machine held it): ${seen.join('; ')}`);
  });

  it('session-status-expired-valid: GET /session says VALID once the consent expired (EXPIRED on a clean reference)', async () => {
    const opts = { timeScale: 0.01, lifetimes: { consentS: 100 } };
    const refs = [await withReference(opts), await withReference({ ...opts, faults: ['session-status-expired-valid'] })];
    try {
      const one = async ({ ref, client }: { ref: Reference; client: RefClient }) => {
        await client.ready(BANK);
        await ref.clock.sleep(130_000);
        return [(await client.call('GET', `/session/${client.sessionId}`)).json.consentStatus, (await client.call('GET', '/accounts')).status];
      };
      assert.deepEqual(await Promise.all(refs.map(one)), [['EXPIRED', 510], ['VALID', 510]]);
    } finally { for (const r of refs) await r.ref.close(); }
  });

  it('covers every session fault of the catalog', () => {
    const here = [...CASES.map(k => k.name), 'session-no-expiry', 'session-status-expired-valid'];
    assert.deepEqual(FAULTS.filter(f => f.prefix.startsWith('session.')).map(f => f.name).filter(n => !here.includes(n)), []);
  });
});
