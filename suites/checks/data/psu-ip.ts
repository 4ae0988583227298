// x-psu-ip-address is "Optional on account and payment endpoints; required for
// some banks" (spec 4.4). A bank that refuses a call without it may be one of
// those; a target where every bank under test refuses it has made it required.
import type { Check } from '../../support/register.ts';
import { type CheckContext, describeAnswer } from '../../support/check.ts';
import { target } from '../../support/target.ts';
import { banksUnderTest } from '../../support/banks.ts';
import { accountsOf } from './records.ts';

export interface HeaderAnswer { bankId: string; served: boolean; seen: string }

/** Passes when a bank served the call without the header; fails when two or more banks all refused it; one refusing bank cannot tell. */
export function psuIpVerdict(c: CheckContext, name: string, what: string, answers: HeaderAnswer[]): void {
  const served = answers.filter(a => a.served).map(a => a.bankId);
  const refused = answers.filter(a => !a.served);
  const refusedText = refused.map(a => `${a.bankId}: ${a.seen}`).join('; ');
  if (served.length) {
    c.summary = `${what} without ${name} served at ${served.join(', ')}` +
      `${refused.length ? `; refused at ${refused.map(a => a.bankId).join(', ')} (allowed: "required for some banks")` : ''}`;
    return;
  }
  if (answers.length < 2)
    c.skip(`the only bank under test refused ${what} without ${name}, which "some banks" may do (${refusedText})`, 'give --banks with two banks or more');
  c.fail(`every bank under test (${answers.length}) refused ${what} without ${name}: the spec makes it optional, required only for some banks`,
    `${what} served without ${name} at one bank at least`, refusedText);
}

export const psuIpOptional: Check = {
  id: 'data.accounts.psu-ip-optional', requirements: ['R4.4-psu-ip-address-optional'], spec: '4.4',
  title: 'GET /accounts works without x-psu-ip-address, except at banks that require it',
  quote: 'x-psu-ip-address | Optional on account and payment endpoints; required for some banks.',
  async run(c) {
    const name = target().headers.psuIpAddress;
    const answers: HeaderAnswer[] = [];
    for (const bank of await banksUnderTest()) {
      const { res, accounts } = await accountsOf(c, bank.id, { [name]: '' }, `accounts at ${bank.id}, without ${name}`);
      answers.push({ bankId: bank.id, served: !!accounts, seen: `${describeAnswer(res)}` });
    }
    psuIpVerdict(c, name, 'GET /accounts', answers);
  },
};
