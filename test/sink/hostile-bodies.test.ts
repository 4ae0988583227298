// `sink` fed 600 bodies of about 1 MB (half of them webhook bodies of the
// sender padded with an unknown field, half junk from a stranger), then stopped
// with Ctrl-C: every attempt is recorded with its length and hash, memory stays
// bounded, and the report folder is written whole and small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { RunResults } from '../../harness/results/model.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';
import { ROOT } from '../helpers/cli.ts';
import { STRANGER_SAMPLE } from '../../harness/sink/server.ts';

const KEY = 'hostile-bodies-key-5';
const POSTS = 600;
const BODY_BYTES = 1_000_000;

/** Peak resident memory of a process in MB (VmHWM), or 0 once it is gone. */
function peakRssMb(pid: number): number {
  try { return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024; } catch { return 0; }
}

test('600 bodies of 1 MB: bounded memory, every attempt of the sender recorded, a small whole report after Ctrl-C', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-sink-big-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'harness/cli.ts', 'sink', '--port', '0', '--api-key', KEY, '--report', dir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '', peak = 0;
  child.stderr.on('data', d => { stderr += d; });
  const exited = new Promise<number | null>(resolve => child.on('close', resolve));
  const watch = setInterval(() => { peak = Math.max(peak, peakRssMb(child.pid!)); }, 50);
  const agent = new Agent({ connections: 8 });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', d => { stdout += d; const m = /listening at (\S+)/.exec(stdout); if (m) resolve(m[1]); });
      void exited.then(() => reject(new Error(`sink exited early:\n${stdout}\n${stderr}`)));
    });
    const idle = peakRssMb(child.pid!);
    const padded = (i: number) => {
      const body = buildWebhookBody({ kind: 'normal', id: `big-${i % 20}`, status: 'STARTED' });
      const text = JSON.stringify({ ...body, padding: '' });
      return Buffer.from(text.replace('"padding":""', `"padding":"${'p'.repeat(BODY_BYTES - Buffer.byteLength(text))}"`));
    };
    const junk = Buffer.alloc(BODY_BYTES, 'j');
    let next = 0;
    const codes: number[] = [];
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = next++; i < POSTS; i = next++) {
        const own = i % 2 === 0;
        // The sink's probes answer some of the sender's attempts with a reset on purpose.
        const code = await request(`${url}/hook`, { method: 'POST', dispatcher: agent, body: own ? padded(i) : junk,
          headers: own ? { 'api-key': KEY, 'content-type': 'application/json' } : { 'content-type': 'text/plain' } })
          .then(async r => { await r.body.text(); return r.statusCode; }, () => 0);
        codes.push(code);
      }
    }));
    assert.equal(codes.length, POSTS);
    child.kill('SIGINT');
    const code = await exited;
    clearInterval(watch);
    assert.ok(code === 0 || code === 1, `exit ${code}\n${stderr}`);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const d = results.deliveries ?? [];
    // Every attempt of the sender, and the first STRANGER_SAMPLE of the strangers' (the rest are counted).
    assert.equal(d.length, POSTS / 2 + STRANGER_SAMPLE, 'every attempt of the sender recorded, and a sample of the strangers\'');
    const odd = d.filter(x => !(x.bodyBytes === BODY_BYTES && /^[0-9a-f]{64}$/.test(x.bodySha256 ?? '') && x.body.length < 4_500));
    assert.deepEqual(odd.map(x => `#${x.seq} ${x.probe} ${x.answer}: ${x.bodyBytes} bytes, ${x.body.length} kept`), [],
      'each body kept as its start, length and hash');
    assert.equal(d.filter(x => x.unattributed).length, STRANGER_SAMPLE, 'the junk is told apart from the sender');
    assert.ok(results.checks.length >= 20, `${results.checks.length} checks in results.json`);
    const sizes = ['results.json', 'results.jsonl', 'index.html', 'junit.xml'].map(f => statSync(join(dir, f)).size / 1e6);
    // Arbitrary bounds, far below the 86 MB of the kept bodies and the 3.4 GB of memory these bodies once cost.
    assert.ok(Math.max(...sizes) < 20, `report files of ${sizes.map(s => s.toFixed(1)).join(', ')} MB`);
    assert.ok(peak < 600, `peak RSS ${peak.toFixed(0)} MB`);
    assert.match(stdout, /sink stopped \(interrupted\)/);
    t.diagnostic(`600 x 1 MB: sink peak RSS ${peak.toFixed(0)} MB (${idle.toFixed(0)} MB idle); ` +
      `report files ${sizes.map(s => s.toFixed(2)).join(' / ')} MB (results.json / results.jsonl / index.html / junit.xml)`);
  } finally {
    clearInterval(watch);
    await agent.close();
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
