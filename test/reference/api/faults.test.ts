// Each data and payments fault of catalog.yaml (and the quirks extra-fields on
// records, records-not-given, bank-without-sepa, bank-without-domestic,
// payments-bank-rules, one-account and renamed-fields) changes the behaviour
// it names, and the clean reference does not show it: the same probe runs
// against both. Session faults: session-faults.test.ts.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { validateContract } from '../../../harness/contracts/index.ts';
import { bicLengthOk } from '../../../harness/contracts/rules.ts';
import { FAULTS } from '../../../harness/reference/catalog.ts';
import { paymentBody, RefClient, withReference } from './client.ts';
import { describeFaultCases, type FaultCase } from '../fault-cases.ts';

const NORDIC_CODES = ['RCVD', 'ACCP', 'ACSP', 'ACSC', 'RJCT', 'CANC', 'PDNG', 'NAUT', 'PRSY'];

async function accounts(c: RefClient): Promise<any[]> {
  await c.ready('sparebank1-no');
  return (await c.call('GET', '/accounts')).json;
}

async function agents(c: RefClient): Promise<string[]> {
  const list = await accounts(c);
  return (await c.call('GET', `/accounts/${list[0].id}/transactions`)).json.map((t: { counterpartyAgent: string }) => t.counterpartyAgent);
}

const CASES: FaultCase[] = [
  {
    name: 'data-banks-name-filter-ignored',
    probe: async c => (await c.call('GET', '/banks?name=DNB')).json.length,
    clean: 1, faulty: 8,
  },
  {
    name: 'data-banks-filter-ignored',
    probe: async c => [...new Set((await c.call('GET', '/banks?countryCode=SE')).json.map((b: { countryCode: string }) => b.countryCode))].sort(),
    clean: ['SE'], faulty: ['DE', 'DK', 'FI', 'NO', 'SE'],
  },
  {
    name: 'data-owner-null',
    probe: async c => (await accounts(c)).map(a => a.ownerName),
    clean: ['Kari Nordmann', ''], faulty: ['Kari Nordmann', null],
  },
  {
    name: 'data-names-blank',
    probe: async c => (await accounts(c)).flatMap(a => [a.ownerName, a.displayName]),
    clean: ['Kari Nordmann', 'Brukskonto', '', ''], faulty: ['', '', '', ''],
  },
  {
    // The quirk: the bank gives none of spec 2.6's five fields, so all are "".
    name: 'records-not-given',
    probe: async c => {
      const list = await accounts(c);
      const txs = (await c.call('GET', `/accounts/${list[0].id}/transactions`)).json as Record<string, string>[];
      return [...list.flatMap(a => [a.ownerName, a.displayName]), txs.filter(t => t.counterpartyAccount || t.counterpartyName || t.counterpartyAgent).length];
    },
    clean: ['Kari Nordmann', 'Brukskonto', '', '', 3], faulty: ['', '', '', '', 0],
  },
  {
    name: 'data-counterparty-blank',
    probe: async c => {
      const list = await accounts(c);
      const txs = (await c.call('GET', `/accounts/${list[0].id}/transactions`)).json;
      return txs.filter((t: Record<string, string>) => t.counterpartyAccount || t.counterpartyName || t.counterpartyAgent).length;
    },
    clean: 3, faulty: 0,
  },
  {
    name: 'data-bic-9',
    probe: async c => (await agents(c)).filter(a => a !== '').map(a => bicLengthOk(a)),
    clean: [true, true], faulty: [false, true],
  },
  {
    name: 'data-services-not-array',
    probe: async c => typeof (await c.call('GET', '/banks/nordea-fi')).json.supportedServices,
    clean: 'object', faulty: 'string',
  },
  {
    name: 'payments-no-e2e-check',
    probe: async c => {
      await c.ready('sparebank1-no');
      const body = paymentBody('domestic-transfer', { endToEndIdentification: undefined });
      const sepa = paymentBody('sepa-credit', { endToEndIdentification: undefined });
      return [(await c.call('POST', '/payments/domestic-transfer', { body })).status, (await c.call('POST', '/payments/sepa-credit', { body: sepa })).status];
    },
    clean: [510, 510], faulty: [201, 510],
  },
  {
    name: 'payments-sepa-no-payment-id',
    probe: async c => {
      await c.ready('deutsche-de');
      const sepa = await c.call('POST', '/payments/sepa-credit', { body: paymentBody('sepa-credit', { currency: 'EUR' }) });
      const dom = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer', { currency: 'EUR' }) });
      return [sepa.status, 'paymentId' in sepa.json, 'paymentId' in dom.json];
    },
    clean: [201, true, true], faulty: [201, false, true],
  },
  {
    name: 'payments-scheduled-no-date-check',
    probe: async c => {
      await c.ready('nordea-fi');
      const body = paymentBody('sepa-scheduled-credit', { requestedExecutionDate: undefined });
      const bad = paymentBody('sepa-scheduled-credit', { requestedExecutionDate: '2026-13-01' });
      return [(await c.call('POST', '/payments/sepa-scheduled-credit', { body })).status,
        (await c.call('POST', '/payments/sepa-scheduled-credit', { body: bad })).status];
    },
    clean: [510, 510], faulty: [201, 510],
  },
  {
    name: 'payments-status-non-nordic',
    probe: async c => {
      await c.ready('sparebank1-no');
      const p = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') });
      return [NORDIC_CODES.includes(p.json.status),
        NORDIC_CODES.includes((await c.call('GET', `/payments/domestic-transfer/${p.json.paymentId}`)).json.status)];
    },
    clean: [true, true], faulty: [true, false],
  },
  {
    name: 'payments-status-non-nordic-one-bank',
    probe: async c => {
      const nordic = [];
      for (const bank of ['sparebank1-no', 'nordea-fi']) {
        await c.ready(bank);
        const p = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') });
        nordic.push(NORDIC_CODES.includes((await c.call('GET', `/payments/domestic-transfer/${p.json.paymentId}`)).json.status));
      }
      return nordic;
    },
    clean: [true, true], faulty: [false, true],
  },
  {
    name: 'payments-by-id-other-payment',
    probe: async c => {
      await c.ready('sparebank1-no');
      const same = [];
      for (const product of ['sepa-credit', 'domestic-transfer']) {
        const p = await c.call('POST', `/payments/${product}`, { body: paymentBody(product) });
        same.push((await c.call('GET', `/payments/${product}/${p.json.paymentId}`)).json.paymentId === p.json.paymentId);
      }
      return same;
    },
    clean: [true, true], faulty: [false, true],
  },
  {
    name: 'payments-scheduled-date-dropped',
    probe: async c => {
      await c.ready('nordea-fi');
      const p = await c.call('POST', '/payments/sepa-scheduled-credit', { body: paymentBody('sepa-scheduled-credit') });
      return (await c.call('GET', `/payments/sepa-scheduled-credit/${p.json.paymentId}`)).json.requestedExecutionDate === '2026-12-01';
    },
    clean: true, faulty: false,
  },
  {
    name: 'payments-confirm-funds-first-account',
    probe: async c => {
      const second = (await accounts(c))[1];
      const r = await c.call('POST', '/confirm-funds', { body: { iban: second.iban, amount: '621.00', currency: 'NOK' } });
      return r.json.fundsAvailable;
    },
    clean: false, faulty: true,
  },
  {
    // A rename of 3.0.0 (spec 9), at the latest version: confirm funds answers under its name before 3.0.0 only.
    name: 'renamed-confirm-funds',
    probe: async c => {
      await c.ready('sparebank1-no');
      const body = { body: { iban: 'NO9386011117947', amount: 1, currency: 'NOK' } };
      return [(await c.call('POST', '/confirm-funds', body)).status, (await c.call('POST', '/fundsconfirmations', body)).status];
    },
    clean: [200, 404], faulty: [404, 200],
  },
  {
    name: 'payments-confirm-funds-unsupported-200',
    probe: async c => {
      await c.ready('danske-dk');
      const dk = await c.call('POST', '/confirm-funds', { body: { iban: 'DK5000400440116243', amount: 1, currency: 'DKK' } });
      await c.ready('sparebank1-no');
      const no = await c.call('POST', '/confirm-funds', { body: { iban: 'NO9386011117947', amount: 1, currency: 'NOK' } });
      return [dk.status, no.status];
    },
    clean: [501, 200], faulty: [200, 200],
  },
  {
    name: 'payments-confirm-funds-unsupported-false',
    probe: async c => {
      await c.ready('danske-dk');
      const dk = await c.call('POST', '/confirm-funds', { body: { iban: 'DK5000400440116243', amount: 1, currency: 'DKK' } });
      return [dk.status, dk.json.fundsAvailable];
    },
    clean: [501, undefined], faulty: [200, false],
  },
  {
    name: 'payments-sca-redirect-ignored',
    probe: async c => {
      await c.ready('dnb-no');
      const p = await c.call('POST', '/payments/domestic-transfer',
        { body: paymentBody('domestic-transfer'), headers: { 'x-redirect-url': 'https://merchant.example/paid' } });
      const auth = await c.call('POST', new URL(p.json.links[0].href).pathname.replace(/^\/api/, ''));
      const page = await fetch(auth.json.links[0].href, { redirect: 'manual' });
      return page.headers.get('location')?.replace(/^http:\/\/[^/]+/, '');
    },
    clean: 'https://merchant.example/paid', faulty: '/bank/done?what=authorize',
  },
  {
    // The bank's authorisation link left out for one product only.
    name: 'payments-sepa-scheduled-authorize-no-link',
    probe: async c => {
      await c.ready('nordea-fi');
      const links = async (product: string) => {
        const p = await c.call('POST', `/payments/${product}`, { body: paymentBody(product, { currency: 'EUR' }) });
        return (await c.call('POST', `/payments/${product}/${p.json.paymentId}/authorize`)).json.links?.length ?? 0;
      };
      return [await links('sepa-scheduled-credit'), await links('sepa-credit')];
    },
    clean: [1, 1], faulty: [0, 1],
  },
  {
    name: 'bank-without-sepa',
    probe: async c => {
      await c.ready('sparebank1-no');
      const no = await c.call('POST', '/payments/sepa-credit', { body: paymentBody('sepa-credit', { currency: 'EUR' }) });
      await c.ready('nordea-fi');
      const fi = await c.call('POST', '/payments/sepa-credit', { body: paymentBody('sepa-credit', { currency: 'EUR' }) });
      return [no.status, fi.status];
    },
    clean: [201, 201], faulty: [510, 201],
  },
  {
    name: 'bank-without-domestic',
    probe: async c => {
      await c.ready('deutsche-de');
      const de = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer', { currency: 'EUR' }) });
      await c.ready('sparebank1-no');
      const no = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') });
      return [de.status, no.status];
    },
    clean: [201, 201], faulty: [510, 201],
  },
  {
    name: 'payments-bank-rules',
    probe: async c => {
      await c.ready('sparebank1-no');
      const post = async (product: string, extra: Record<string, unknown>) =>
        (await c.call('POST', `/payments/${product}`, { body: paymentBody(product, extra) })).status;
      return [
        await post('sepa-credit', {}), await post('sepa-credit', { currency: 'EUR' }),
        await post('domestic-transfer', { creditorAccount: { iban: 'NO9386011117947' } }),
        await post('domestic-scheduled-transfer', { requestedExecutionDate: '2026-12-05' }),
        await post('domestic-scheduled-transfer', { requestedExecutionDate: '2026-12-07' }),
      ];
    },
    clean: [201, 201, 201, 201, 201], faulty: [510, 201, 510, 510, 201],
  },
  {
    name: 'one-account',
    probe: async c => [(await accounts(c)).length, (await c.call('POST', '/payments/domestic-transfer',
      { body: paymentBody('domestic-transfer', { creditorAccount: { iban: 'NO9386011117947' } }) })).status],
    clean: [2, 201], faulty: [1, 510],
  },
  {
    name: 'renamed-fields',
    probe: async c => {
      await c.ready('sparebank1-no');
      const named = await c.call('POST', '/payments/domestic-transfer',
        { body: paymentBody('domestic-transfer', { amount: '10.00', endToEndId: 'e2e-2', instrumentedAmount: undefined, endToEndIdentification: undefined }) });
      const profile = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') });
      const funds = await c.call('POST', '/confirm-funds', { body: { account: 'NO9386011117947', amount: '1.00', currency: 'NOK' } });
      return [named.status, Object.keys(named.json).includes('payment'), profile.status, funds.json.available];
    },
    clean: [510, false, 201, undefined], faulty: [201, true, 510, true],
  },
  {
    name: 'extra-fields',
    probe: async c => {
      const bank = (await c.call('GET', '/banks/dnb-no')).json;
      const account = (await accounts(c))[0];
      const tx = (await c.call('GET', `/accounts/${account.id}/transactions`)).json[0];
      return ['logoUrl' in bank, 'usage' in account, 'entryReference' in tx,
        validateContract('bank', bank).length, validateContract('account', account).length, validateContract('transaction', tx).length];
    },
    clean: [false, false, false, 0, 0, 0], faulty: [true, true, true, 0, 0, 0],
  },
];

describeFaultCases('data and payments faults change exactly what they name', CASES, () => {
  it('covers every fault of the data and payments prefixes in the catalog', () => {
    const named = FAULTS.filter(f => /^(data|payments)\./.test(f.prefix)).map(f => f.name);
    assert.deepEqual(named.filter(n => !CASES.some(k => k.name === n)), []);
  });

  it('an unknown fault name is a harness error naming --list-faults', async () => {
    await assert.rejects(withReference({ faults: ['no-such-fault'] }), (e: Error & { code?: string }) =>
      e.code === 'PIS_BAD_FLAG' && /--list-faults/.test(e.message));
  });
});
