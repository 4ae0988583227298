// The manual consent driver prints the link and waits, with progress, until
// the person is done; here the "person" is this test, which reads the link
// from the run's output and opens it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { ROOT } from '../helpers/cli.ts';

test('the manual driver shows the consent link and goes on once it was opened', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-manual-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'harness/cli.ts'), 'run', '--suites', 'session',
      '--grep', 'session.lifecycle.consent ', '--consent-driver', 'manual', '--report', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let opened = false;
    child.stdout.on('data', async d => {
      out += d;
      const m = /complete the consent:\n\s+(\S+)/.exec(out);
      if (m && !opened) { opened = true; await (await fetch(m[1]!, { redirect: 'manual' })).arrayBuffer(); }
    });
    child.stderr.on('data', d => { out += d; });
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no end within 150 s:\n${out}`)); }, 150_000);
      child.on('close', c => { clearTimeout(timer); resolve(c); });
    });
    assert.equal(code, 0, out);
    assert.ok(opened, out);
    assert.match(out, />>> consent done, thank you\./);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.checks.find(c => c.id === 'session.lifecycle.consent')?.status, 'passed');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
