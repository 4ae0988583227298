// data.banks: the bank list, its filters, bank by id (spec 2.6, 4.4; 9 2.0.0
// "get bank by id; bank list filters countryCode and name").
import type { Check } from '../../support/register.ts';
import { call, isError, obj, ok } from '../../support/api.ts';
import { type CheckContext, describeAnswer, Prerequisite, show } from '../../support/check.ts';
import { expectContract, recordContract } from '../../support/contract.ts';
import { target } from '../../support/target.ts';
import { bankSelection, banksUnderTest, type Bank } from '../../support/banks.ts';
import { bankCountry, where } from '../../support/describe.ts';
import { urlEncodable } from '../../../harness/config/profile.ts';

async function list(c: CheckContext, query?: Record<string, string>): Promise<{ status: number; banks?: Bank[]; raw: unknown }> {
  const res = await call(c, 'GET', 'banks', {}, { query, label: query ? `banks ${new URLSearchParams(query)}` : 'all banks' });
  const banks = ok(res) && Array.isArray(res.json) ? (res.json as Bank[]).filter(b => b && typeof b === 'object') : undefined;
  return { status: res.status, banks, raw: res.json ?? res.text };
}

/** Every listed bank as a place of the 'bank' family (a bank without a string id is named by its position). */
const listedPlaces = (banks: Bank[]) => banks.map((b, i) => ({ name: typeof b.id === 'string' ? b.id : `bank ${i + 1} of the list`, value: b }));

async function allOrSkip(c: CheckContext): Promise<Bank[]> {
  const { banks, status } = await list(c);
  if (!banks?.length) throw new Prerequisite(`GET /banks answered ${status} without banks (see data.banks.list)`);
  return banks;
}

export const listBanks: Check = {
  id: 'data.banks.list', requirements: ['R4.4-banks-list'], spec: '4.4',
  title: 'GET /banks lists banks, each with an id',
  quote: 'GET /banks | Lists banks.',
  async run(c) {
    const { status, banks, raw } = await list(c);
    c.expect(banks, 'the bank list was not answered', 'a 2xx answer with a JSON array', `${status} ${show(raw)}`);
    c.expect(banks!.length > 0, 'the bank list is empty', 'at least one bank', '[]');
    const noId = banks!.filter(b => typeof b.id !== 'string' || !b.id);
    c.expect(!noId.length, 'banks without an id', 'every bank has a string id', show(noId[0]));
    // The banks every data and payments check visits, named once in the report (a bad --banks is the other checks' reason to skip).
    const summary = await bankSelection().then(s => s.summary, (e: unknown) => { if (e instanceof Prerequisite) return `none: ${e.message}`; throw e; });
    c.note(`banks under test: ${summary}`);
    c.summary = `${banks!.length} banks listed; under test: ${summary}`;
  },
};

export const supportedServices: Check = {
  id: 'data.banks.supported-services', requirements: ['R2.6-supported-services'], spec: '2.6', bindsAt: { family: 'bank' },
  title: 'supportedServices is an array of strings, at every listed bank',
  quote: 'bank (GET /banks) | supportedServices | Array of strings. ... A value present means the bank supports that feature.',
  async run(c) {
    await c.everyPlace('bank', listedPlaces(await allOrSkip(c)), async b =>
      c.expect(Array.isArray(b.supportedServices) && b.supportedServices.every(s => typeof s === 'string'),
        `supportedServices of ${b.id} is not an array of strings`, 'an array of strings', show(b.supportedServices)));
  },
};

export const filterCountry: Check = {
  id: 'data.banks.filter-country', requirements: ['R4.4-banks-filter-country'], spec: '4.4',
  title: 'The countryCode filter lists only and all banks of that country',
  quote: 'GET /banks | Lists banks. Query filters: countryCode, name.',
  async run(c) {
    const banks = await allOrSkip(c);
    const countries = [...new Set((await banksUnderTest()).map(b => String(bankCountry(b))))];
    // With one country in the list, a filter that does nothing would pass: ask for another country too.
    if (new Set(banks.map(b => String(bankCountry(b)))).size === 1) countries.push(countries[0] === 'SE' ? 'NO' : 'SE');
    for (const cc of countries) {
      const { status, banks: filtered, raw } = await list(c, { countryCode: cc });
      c.expect(filtered, `the list filtered by countryCode=${cc} was not answered`, 'a 2xx answer with a JSON array', `${status} ${show(raw)}`);
      const other = filtered!.filter(b => bankCountry(b) !== cc);
      c.expect(!other.length, `countryCode=${cc} lists banks of other countries`, `only banks with ${cc} at ${where('bank.country')}`,
        `${other.length} others, e.g. ${show(other[0])}`);
      const expected = banks.filter(b => bankCountry(b) === cc).map(b => b.id);
      const missing = expected.filter(id => !filtered!.some(b => b.id === id));
      c.expect(!missing.length, `countryCode=${cc} leaves out banks of that country`, `all of ${show(expected)}`, `missing ${show(missing)}`);
    }
  },
};

const nameOf = (b: Bank) => String(b.bankDisplayName ?? b.name ?? b.bankOfficialName ?? '');
/** Every name a bank carries (the bank record's name fields are not shown; these are docs/profile.md's and a plain name). */
const namesOf = (b: Bank) => [b.bankDisplayName, b.bankOfficialName, b.name, b.bankingGroupName].filter((x): x is string => typeof x === 'string');
const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(w => w.length > 1);

/** True when a listed bank has something in common with the name asked for: a word, or one name inside the other. */
function sharesName(query: string, b: Bank): boolean {
  const q = query.toLowerCase(), qw = new Set(words(query));
  return namesOf(b).some(n => n.toLowerCase().includes(q) || q.includes(n.toLowerCase()) || words(n).some(w => qw.has(w)));
}

/** The banks under test with a name, each asked for by that name. */
async function byName(c: CheckContext): Promise<{ bank: Bank; q: string; banks?: Bank[]; status: number; raw: unknown }[]> {
  const named = (await banksUnderTest()).filter(b => nameOf(b));
  if (!named.length) c.skip('not checked: no bank under test has a name field (bankDisplayName, name or bankOfficialName)');
  const out = [];
  for (const bank of named) out.push({ bank, q: nameOf(bank), ...(await list(c, { name: nameOf(bank) })) });
  return out;
}

export const filterName: Check = {
  id: 'data.banks.filter-name', requirements: ['R4.4-banks-filter-name'], spec: '4.4',
  title: 'The name filter finds a bank by its name and lists no bank whose names share nothing with it',
  quote: 'GET /banks | Lists banks. Query filters: countryCode, name. ' +
    '(How a name matches is not shown: any matching rule lists the bank named, and a filter lists nothing unrelated.)',
  async run(c) {
    for (const { bank, q, banks, status, raw } of await byName(c)) {
      c.expect(banks, `the list filtered by name=${q} was not answered`, 'a 2xx answer with a JSON array', `${status} ${show(raw)}`);
      c.expect(banks!.some(b => b.id === bank.id), `name=${q} does not list ${bank.id}`, `bank ${bank.id} in the list`, show(banks!.map(b => b.id)));
      const unrelated = banks!.filter(b => !sharesName(q, b));
      c.expect(!unrelated.length,
        `name=${q} lists ${unrelated.length} bank${unrelated.length === 1 ? '' : 's'} whose names share nothing with it (the filter is not applied)`,
        `only banks whose names have a word of "${q}"`, show(unrelated.map(b => nameOf(b) || b.id)));
    }
  },
};

export const filterNameNarrows: Check = {
  id: 'data.banks.filter-name-narrows', requirements: ['R4.4-banks-filter-name'], spec: '4.4',
  title: 'The name filter lists only banks whose name contains the name asked for',
  quote: 'GET /banks | Lists banks. Query filters: countryCode, name. (How a name matches is not shown: any bank listed should carry the name asked for.)',
  async run(c) {
    for (const { q, banks } of await byName(c)) {
      if (!banks) c.skip('not checked: the filtered list was not answered (see data.banks.filter-name)');
      const off = banks!.filter(b => !namesOf(b).join(' | ').toLowerCase().includes(q.toLowerCase()));
      c.expect(!off.length, `name=${q} lists banks of other names`, `only banks whose name contains "${q}"`, show(off.map(b => nameOf(b))));
    }
  },
};

export const byId: Check = {
  id: 'data.banks.by-id', requirements: ['R4.4-bank-by-id', 'R2.6-supported-services'], spec: '4.4', bindsAt: { family: 'bank' },
  title: "Every bank under test can be read by its id, and the record follows the spec's rules for bank records",
  quote: 'Get bank by id | Returns one bank.',
  async run(c) {
    const banks = await banksUnderTest();
    // An id no URL can carry (a lone surrogate) cannot be asked for: said, and the other banks are read.
    const unsendable = banks.filter(b => !urlEncodable(b.id));
    if (unsendable.length)
      c.note(`not read by id: ${unsendable.length} bank id(s) with a lone UTF-16 surrogate, which no URL can carry: ${show(unsendable.map(b => b.id))}`);
    if (unsendable.length === banks.length) c.skip(`not checked: every bank id under test holds a lone UTF-16 surrogate, which no URL can carry`);
    await c.everyPlace('bank', banks.filter(b => urlEncodable(b.id)).map(b => ({ name: b.id, value: b.id })), async id => {
      const res = await call(c, 'GET', 'bank', { bankId: id }, { label: `bank ${id} by id` });
      c.expect(ok(res) && obj(res), `the bank ${id} was not answered`, 'a 2xx answer with a bank object', `${describeAnswer(res)}`, res);
      c.expect(obj(res)!.id === id, `asked for ${id}, another bank came back`, `id ${id}`, show(obj(res)!.id), res);
      expectContract(c, 'bank', [{ label: `bank ${id} by id`, value: res.json, at: res }]);
    });
  },
};

export const unknownId: Check = {
  id: 'data.banks.unknown-id', requirements: ['R4.4-bank-by-id', 'P-ops-bank-unknown-id'], spec: '4.4',
  title: 'An unknown bank id is answered with an error',
  quote: 'Get bank by id | Returns one bank. (docs/profile.md: unknown id -> error; a must check accepts any 4xx or 5xx.)',
  async run(c) {
    const res = await call(c, 'GET', 'bank', { bankId: 'pis-conformance-no-such-bank' }, { label: 'an unknown bank id' });
    c.expect(isError(res), 'an unknown bank id was answered as if it existed', 'a 4xx or 5xx answer', `${describeAnswer(res)}`);
  },
};

export const errorBody: Check = {
  id: 'data.banks.error-body', requirements: ['P-error-body-shape'], spec: '7',
  title: 'API errors use the error body of docs/profile.md (errorCode, type, links)',
  quote: 'docs/profile.md: Error body (every API error): { "id", "errorCode": "1426", "message", "source", "type", "timestamp", "links" }',
  async run(c) {
    const res = await call(c, 'GET', 'bank', { bankId: 'pis-conformance-no-such-bank' }, { label: 'an unknown bank id' });
    if (!isError(res)) c.skip('not checked: the unknown id was not refused (see data.banks.unknown-id)');
    expectContract(c, 'error-body', [{ label: 'the error answer', value: res.json ?? res.text }]);
  },
};

/** Every listed bank against the bank contract, at the level the check is registered at (the violations of that level). */
async function listedAgainstContract(c: CheckContext): Promise<void> {
  await c.everyPlace('bank', listedPlaces(await allOrSkip(c)), async b => expectContract(c, 'bank', [{ label: `bank ${b.id}`, value: b }]));
}

export const [contract, profileFields] = recordContract(listedAgainstContract,
  { id: 'data.banks.contract', requirements: ['R2.6-supported-services'], spec: '2.6', title: "Banks follow the spec's rules for bank records",
    quote: 'supportedServices | Array of strings.' },
  { id: 'data.banks.profile-fields', requirements: ['P-records-bank'], spec: '4.4', title: "Banks carry docs/profile.md's bank fields",
    quote: 'docs/profile.md: bank: id, countryCode, bankDisplayName, bankOfficialName, bankingGroupName, bic, status, ' +
      'personalIdentificationRequired, supportedServices' });

export const requestId: Check = {
  id: 'data.banks.request-id', requirements: ['P-call-request-id'], spec: '4.4',
  title: 'API answers carry x-request-id',
  quote: 'docs/profile.md: correlation | responses carry x-request-id',
  async run(c) {
    const res = await call(c, 'GET', 'banks', {}, { label: 'all banks' });
    const name = target().headers.requestId.toLowerCase();
    c.expect(res.headers[name], `the answer has no ${name} header`, `a ${name} header`, Object.keys(res.headers).join(', '));
  },
};

/** application/json, with parameters (charset) or without; a structured suffix (+json) is another type. */
const JSON_TYPE = /^application\/json\s*(;|$)/i;

export const jsonContentType: Check = {
  id: 'data.banks.json-content-type', requirements: ['P-call-json'], spec: '4.4',
  title: 'API answers with a body say content-type application/json, errors included',
  quote: 'docs/profile.md: bodies | JSON, content-type: application/json',
  async run(c) {
    const [first] = await allOrSkip(c);
    const answers = [
      { label: 'the bank list', res: await call(c, 'GET', 'banks', {}, { label: 'all banks' }) },
      { label: `bank ${first!.id} by id`, res: await call(c, 'GET', 'bank', { bankId: String(first!.id) }, { label: `bank ${first!.id} by id` }) },
      { label: 'the error answer to an unknown bank id',
        res: await call(c, 'GET', 'bank', { bankId: 'pis-conformance-no-such-bank' }, { label: 'an unknown bank id' }) },
    ].filter(a => a.res.text.length);
    const off = answers.filter(a => !JSON_TYPE.test(a.res.headers['content-type'] ?? ''));
    c.expect(!off.length, `${off[0]?.label} says content-type ${off[0]?.res.headers['content-type'] ?? '(none)'}`,
      'content-type: application/json on every answer with a body', off.map(a => `${a.label}: ${a.res.headers['content-type'] ?? '(none)'}`).join('; '));
    c.summary = `${answers.length} answers, each application/json`;
  },
};

export const deviceHeader: Check = {
  id: 'data.banks.device-header', requirements: ['P-call-device-header', 'P-error-codes-known'], spec: '4.4',
  title: 'A call without the device header is refused with error 1001',
  quote: 'docs/profile.md: device header | x-device-id: <any stable string> on every API call; missing -> error 1001',
  async run(c) {
    const t = target();
    const res = await call(c, 'GET', 'banks', {}, { label: `all banks, without ${t.headers.device}`, headers: { [t.headers.device]: '' } });
    c.expect(isError(res) && obj(res)?.errorCode === '1001', `a call without ${t.headers.device} was not refused with 1001`,
      'an error answer with errorCode "1001"', `${describeAnswer(res)}`);
  },
};
