// The browser driver: opens the link in Chromium and runs the YAML script of
// clicks and fills given with --consent-script, for sandboxes whose bank pages
// need a person-like visit. The flow is done when the page reaches
// x-redirect-url (answered here, so no server is needed there) or the target
// says so.
import { existsSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import type { ConsentStep } from '../../../harness/config/consent-script.ts';
import { Prerequisite } from '../check.ts';
import { target } from '../target.ts';
import { isRedirectBack, originRefused, originRemedy, type ConsentOutcome, type ConsentTask } from './task.ts';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** Arbitrary: a bank page that takes longer than this to react is reported, not waited for. */
const STEP_TIMEOUT_MS = 15000;

let shared: Promise<Browser> | undefined;

function launch(): Promise<Browser> {
  const path = target().browserPath ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  // Loaded on first use: the check catalog imports this file, and `run` reads
  // that catalog in a process that never opens a browser.
  shared ??= import('@playwright/test').then(({ chromium }) => chromium.launch({ executablePath: path, args: ARGS }));
  return shared;
}

async function step(page: Page, s: ConsentStep, href: string): Promise<void> {
  if ('goto' in s) await page.goto(s.goto.replace('{href}', href), { timeout: STEP_TIMEOUT_MS });
  else if ('click' in s) await page.click(s.click, { timeout: STEP_TIMEOUT_MS });
  else if ('fill' in s) await page.fill(s.fill, s.value, { timeout: STEP_TIMEOUT_MS });
  else if ('press' in s) await page.press(s.press, s.key, { timeout: STEP_TIMEOUT_MS });
  else if ('waitFor' in s) await page.waitForSelector(s.waitFor, { timeout: STEP_TIMEOUT_MS });
  else await page.waitForURL(new RegExp(s.waitForUrl), { timeout: STEP_TIMEOUT_MS });
}

export async function browser(task: ConsentTask): Promise<ConsentOutcome> {
  let b: Browser;
  try { b = await launch(); } catch (e) {
    shared = undefined;
    throw new Prerequisite(`Chromium could not be started for the browser consent driver (${(e as Error).message.split('\n')[0]}); ` +
      'set browserPath in the config file');
  }
  const context = await b.newContext();
  try {
    const page = await context.newPage();
    let back = false;
    // Pages may load what they like, but the page itself goes only where originRefused allows (routes registered later are asked first).
    let refused: { why: string; url: string } | undefined;
    await page.route(() => true, route => {
      const req = route.request();
      const why = req.isNavigationRequest() && req.frame() === page.mainFrame() ? originRefused(req.url(), task.what) : undefined;
      if (!why) return route.fallback();
      refused ??= { why, url: req.url() };
      return route.abort('blockedbyclient');
    });
    await page.route(u => isRedirectBack(u.href), route => {
      back = true;
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>back at the client</p>' });
    });
    const script = target().consentScript ?? [];
    // A script that starts with goto opens the link its own way (a bank page with a query parameter, a login first).
    const first = originRefused(task.href, task.what);
    if (first) throw new Prerequisite(first, originRemedy(task.href));
    const stopIfRefused = () => { if (refused) throw new Prerequisite(refused.why, originRemedy(refused.url)); };
    if (!(script[0] && 'goto' in script[0])) await page.goto(task.href, { timeout: STEP_TIMEOUT_MS }).catch(e => { stopIfRefused(); throw e; });
    for (const [i, s] of script.entries()) {
      if (back) break;
      try { await step(page, s, task.href); } catch (e) {
        stopIfRefused();
        throw new Prerequisite(`step ${i + 1} of the consent script (${JSON.stringify(s)}) failed on ${page.url()}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    stopIfRefused();
    task.c?.note(`browser ${task.what}: ran ${(target().consentScript ?? []).length} script steps, ended at ${page.url()}`);
    if (!back && !(await task.done())) throw new Prerequisite(`after the consent script the ${task.what} is still not done (page ${page.url()})`);
    return { redirectedBack: back, finalUrl: page.url() };
  } finally {
    await context.close();
  }
}
