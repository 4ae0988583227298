// The runs of `run` that prove the mutations of test/suites/mutations.ts, and the banks each visits.
import type { ProxyMutation } from '../helpers/proxy.ts';

export interface Mutation extends ProxyMutation {
  /** The run of RUNS that proves it. */
  run: RunName;
}

export interface MutationRun {
  suites: string;
  /** Only the checks whose test title matches (Playwright --grep). */
  grep?: string;
  /** More flags of `run`. */
  args?: string[];
}

/**
 * The banks every run visits: strong customer authentication (dnb-no,
 * danske-dk) and none (deutsche-de), both scheduled products between them and
 * one missing at each, Nordic status codes, confirm-funds answered and Not
 * Implemented (danske-dk), two or more banks for the optional-header checks.
 */
export const BANKS = 'dnb-no,danske-dk,deutsche-de';

export const RUNS = {
  shared: { suites: 'token,session,data,payments' },
  alternates: { suites: 'session,data,payments' },
  // Optional headers made required and error codes renumbered would mask what the shared run's mutations show.
  optional: { suites: 'session,data,payments' },
  'access-token': { suites: 'token', grep: 'token\\.issue\\.access-token ' },
  'token-use': { suites: 'token', grep: 'token\\.use\\.accepted ' },
  // Token checks whose proofs the shared run's mutations would mask: each alone.
  'token-alone': {
    suites: 'token', grep: 'token\\.(use\\.(wrong-token-refused|wrong-token-401|no-token-refused)|issue\\.optional-fields|refresh\\.answers-tokens) ',
  },
  // The same checks, with a token served at one operation of another family each (confirm-funds, a payment read by its id),
  // and the refresh answers broken at another field of the second exchange.
  'token-places': { suites: 'token', grep: 'token\\.(use\\.(wrong-token-refused|wrong-token-401|no-token-refused)|refresh\\.answers-tokens) ' },
  // Refresh answers broken from the second exchange of a chain on: the checks that judge every exchange (refresh-no-scope of the shared run masks it).
  'refresh-exchanges': { suites: 'token', grep: 'token\\.refresh\\.(answers|renews)-tokens ' },
  'session-create': { suites: 'session', grep: 'session\\.lifecycle\\.create ' },
  'consent-url': { suites: 'session', grep: 'session\\.consent-link\\.consent-url ' },
  'consent-kept': { suites: 'session', grep: 'session\\.lifecycle\\.consent ' },
  'banks-list': { suites: 'data', grep: 'data\\.banks\\.list ' },
  'per-bank': { suites: 'session', grep: 'session\\.lifecycle\\.per-bank-accounts ' },
  // The reference's consent lifetime (one spec hour), so that a consent lost before it is a finding.
  'consent-lost': { suites: 'data', grep: 'data\\.transactions\\.list ', args: ['--session-lifetime', '3600'] },
  // The consent-link error served away at one operation: the checks that judge it at every session-bound operation.
  'consent-places': { suites: 'session', grep: 'session\\.(consent-link\\.new-session-every-operation|lifecycle\\.delete) ' },
  // The consent-link error served away in one country only: the check that probes every operation at one bank per country.
  'consent-countries': { suites: 'session', grep: 'session\\.consent-link\\.new-session-every-operation ' },
  'accounts-list': { suites: 'data', grep: 'data\\.accounts\\.list ' },
  'transactions-list': { suites: 'data', grep: 'data\\.transactions\\.list ' },
  // The same lists broken at one bank only (deutsche-de): the checks judge every bank.
  'accounts-bank': { suites: 'data', grep: 'data\\.accounts\\.list ' },
  'transactions-bank': { suites: 'data', grep: 'data\\.transactions\\.list ' },
  // A delete at one bank ends every session there, in one country only: the check that deletes at one bank per country.
  'delete-countries': { suites: 'session', grep: 'session\\.lifecycle\\.delete-keeps-other-sessions ' },
  // Sessions started without an id in one country only: the check that starts one at one bank per country.
  'create-countries': { suites: 'session', grep: 'session\\.lifecycle\\.create ' },
  // The consent status frozen at its first answer in one country only: the check that reads it through every state at one bank per country.
  'status-countries': { suites: 'session', grep: 'session\\.lifecycle\\.status ' },
  // The consent URL left out in one country only: the check that asks for one at one bank per country.
  'consent-url-countries': { suites: 'session', grep: 'session\\.consent-link\\.consent-url ' },
  // A consent that outlives its session's delete in one country only: the check that deletes sessions at one bank per country
  // (the expired session, which needs the consent lifetime, is proven so in test/proofs/operation-places.test.ts).
  'ended-countries': { suites: 'session', grep: 'session\\.lifecycle\\.delete ' },
  // The bank's redirect after consent ignored, and x-redirect-url required, in one country only: the checks that give consent at one bank per country.
  'redirect-countries': { suites: 'session', grep: 'session\\.lifecycle\\.consent-(redirect|without-redirect-url) ' },
} satisfies Record<string, MutationRun>;
export type RunName = keyof typeof RUNS;
