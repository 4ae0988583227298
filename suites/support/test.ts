// The Playwright `test` the suites declare their checks with: Playwright's base
// test, without the browser fixtures of @playwright/test (page, context,
// tracing, screenshots). The checks speak HTTP and never ask for those, yet
// Playwright set up and tore down three automatic fixtures around every test,
// each a step whose source-mapped stack it captured: about a third of a
// worker's CPU. `_baseTest` is Playwright's own export of that base; should a
// version drop it, the full `test` serves, only slower.
import * as playwright from '@playwright/test';

export const test: typeof playwright.test = (playwright as unknown as { _baseTest?: typeof playwright.test })._baseTest ?? playwright.test;
export type { TestInfo } from '@playwright/test';
