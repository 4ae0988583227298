// The follow driver: GET the consent or authorize link and its redirects, as a
// browser would without clicking anything. Stops at x-redirect-url (the flow is
// over once the bank sends the user back) or at the first answer that is not a
// redirect; a 4xx or 5xx there means the bank page refused.
import { exchangeOnce, Prerequisite } from '../check.ts';
import { isRedirectBack, originRefused, originRemedy, type ConsentOutcome, type ConsentTask } from './task.ts';

/** Arbitrary: more hops than any bank login chain we know, few enough to stop a loop quickly. */
const MAX_HOPS = 10;

export async function follow(task: ConsentTask): Promise<ConsentOutcome> {
  let url = task.href;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (isRedirectBack(url)) return { redirectedBack: true, finalUrl: url };
    const refused = originRefused(url, task.what);
    if (refused) throw new Prerequisite(refused, originRemedy(url));
    const ex = await exchangeOnce({ method: 'GET', url, headers: { accept: 'text/html,application/json' }, label: `${task.what} link, hop ${hop + 1}` });
    task.c?.record(ex.evidence);
    const res = ex.response;
    if (!res) throw new Prerequisite(`the ${task.what} link ${url} got no answer (${ex.evidence.error})`);
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) { url = new URL(location, url).href; continue; }
    if (res.status >= 400)
      throw new Prerequisite(`the ${task.what} page answered ${res.status} (the follow driver cannot get past it; try --consent-driver browser or manual)`);
    return { redirectedBack: false, finalUrl: url };
  }
  throw new Prerequisite(`the ${task.what} link redirected more than ${MAX_HOPS} times`);
}
