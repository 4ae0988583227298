// The report folder of a real `run`: every file written, no secret
// value anywhere in it (client secret, api-key, every token the target
// issued), and index.html, opened in Debian's Chromium, shows the verdict and
// a failed check's evidence with a reproducing curl line. The screenshot is
// kept as a test artifact in test-results/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startReference } from '../../harness/reference/index.ts';
import { ROOT, runServedHere } from '../helpers/cli.ts';

/** A pass-through in front of the token endpoint that remembers every token it carries back. */
async function tokenRecorder(upstream: string): Promise<{ url: string; tokens: Set<string>; server: Server }> {
  const tokens = new Set<string>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = await fetch(upstream + req.url, {
      method: req.method, body: chunks.length ? Buffer.concat(chunks) : undefined,
      headers: { 'content-type': req.headers['content-type'] ?? 'application/octet-stream' },
    });
    const text = await answer.text();
    try {
      const j = JSON.parse(text) as Record<string, unknown>;
      for (const k of ['access_token', 'refresh_token']) if (typeof j[k] === 'string') tokens.add(j[k] as string);
    } catch { /* not JSON */ }
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'cache-control']) { const v = answer.headers.get(h); if (v) headers[h] = v; }
    res.writeHead(answer.status, headers).end(text);
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, tokens, server };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap(f => statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]);
}

test('the report folder holds every file, no secret, and a page that shows the verdict and the evidence', async () => {
  const clientSecret = 'cs-4c1f7e9a2b5d', apiKey = 'ak-9e8d7c6b5a41';
  // token-error-leaks-token puts tokens into error answers: the redaction is tested where it matters most.
  const ref = await startReference({ timeScale: 0.05, clientSecret, webhookApiKey: apiKey, faults: ['token-type-mac', 'token-error-leaks-token'] });
  const recorder = await tokenRecorder(ref.authUrl);
  const dir = mkdtempSync(join(tmpdir(), 'pis-html-'));
  try {
    const r = await runServedHere(['run', '--auth-url', recorder.url, '--base-url', ref.baseUrl, '--control-url', ref.controlUrl, '--client-id', ref.clientId,
      '--time-scale', '0.05', '--report', dir], { env: { PIS_CLIENT_SECRET: clientSecret, PIS_WEBHOOK_API_KEY: apiKey }, timeoutMs: 170_000 });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /FAIL token\.issue\.token-type/);

    const files = filesUnder(dir);
    for (const f of ['results.json', 'results.jsonl', 'junit.xml', 'index.html']) assert.ok(files.includes(join(dir, f)), `${f} missing`);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    assert.equal(readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').length, results.checks.length);
    assert.ok(recorder.tokens.size > 10, `only ${recorder.tokens.size} tokens were seen`);
    const secrets = [clientSecret, apiKey, ...recorder.tokens];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const s of secrets) assert.equal(text.includes(s), false, `${f} contains a secret (${s.slice(0, 4)}...)`);
    }
    for (const s of secrets) assert.equal((r.stdout + r.stderr).includes(s), false, 'the terminal output contains a secret');

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto('file://' + join(dir, 'index.html'));
      assert.equal((await page.locator('#verdict').innerText()).trim(), 'Not conformant');
      const failedCheck = page.locator('details.check.failed', { has: page.locator('.id', { hasText: 'token.issue.token-type' }) });
      await failedCheck.scrollIntoViewIfNeeded();
      assert.ok(await failedCheck.locator('.msg').first().isVisible(), 'the failure message is not visible');
      assert.match(await failedCheck.innerText(), /seen "mac"/);
      const curl = failedCheck.locator('.curl pre').first();
      assert.ok(await curl.isVisible(), 'the reproducing curl line is not visible');
      assert.match(await curl.innerText(), /client_secret=\$PIS_CLIENT_SECRET/);
      mkdirSync(join(ROOT, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-results', 'run-report.png'), fullPage: false });
    } finally { await browser.close(); }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>(res => recorder.server.close(() => res()));
    await ref.close();
  }
});
