// A receiver that answers every delivery with 500 and a 10 MB body, as a user
// runs certify-receiver against it: before the answer cap this took 3.3 GB and
// ended in "Invalid string length" with no report. Now: a report folder, the
// finding under receiver.accepts, bounded memory (the peak stated below).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBin } from '../helpers/process.ts';
import { startReceiver } from '../fixtures/receivers/receiver.ts';
import type { RunResults } from '../../harness/results/model.ts';
import { ANSWER_READ_LIMIT_BYTES } from '../../harness/certify/wire.ts';
import { API_KEY } from './certify-helper.ts';

/** The process's peak resident memory so far (Linux /proc), in MB; undefined once it is gone. */
function peakMb(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch { return undefined; }
}

test('answers of 500 with a 10 MB body: a report, the finding under receiver.accepts, memory bounded', async () => {
  const r = await startReceiver({ apiKey: API_KEY, fault: 'huge-500', timeScale: 0.2 });
  const dir = mkdtempSync(join(tmpdir(), 'pis-certify-huge-'));
  let peak = 0;
  try {
    const t0 = performance.now();
    const run = startBin(['certify-receiver', '--url', r.url, '--api-key', API_KEY, '--time-scale', '0.2', '--concurrency', '4', '--report', dir]);
    const sampler = setInterval(() => { peak = Math.max(peak, peakMb(run.pid) ?? 0); }, 50);
    const { code } = await run.closed;
    clearInterval(sampler);
    const wall = performance.now() - t0;
    assert.equal(code, 1, run.out() + run.err());
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.summary.verdict, 'not-conformant');
    const accepts = results.checks.find(c => c.id === 'receiver.accepts.normal-statuses')!;
    assert.equal(accepts.status, 'failed');
    const ev = accepts.evidence.find(e => e.kind === 'http');
    // Read to the sender's limit, counted and hashed; the rest of each 10 MB was never read.
    assert.ok(ev?.kind === 'http' && ev.response?.bodyBytes === ANSWER_READ_LIMIT_BYTES, JSON.stringify(ev).slice(0, 300));
    const sizes = Object.fromEntries(['results.json', 'results.jsonl', 'index.html', 'junit.xml'].map(f => [f, statSync(join(dir, f)).size]));
    for (const [f, size] of Object.entries(sizes)) assert.ok(size < 2 * 1024 * 1024, `${f} is ${size} bytes`);
    // Loose on purpose (a loaded machine collects garbage late); before the cap the peak was 3.3 GB.
    assert.ok(peak > 0 && peak < 400, `peak RSS ${peak.toFixed(0)} MB`);
    process.stdout.write(`# certify-receiver against 500 + 10 MB answers: ${(wall / 1000).toFixed(1)} s, peak RSS ${peak.toFixed(0)} MB, ` +
      `results.json ${(sizes['results.json']! / 1024).toFixed(0)} KiB\n`);
  } finally { await r.close(); rmSync(dir, { recursive: true, force: true }); }
});
