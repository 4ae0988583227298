// A target whose bank list is large (6,144 banks, 1.72 MB, past the 1 MiB
// the harness keeps of other answers) is judged on it like on a short one: the
// bank checks pass and the run is Conformant. A bank id with a lone UTF-16
// surrogate, which no URL can carry, is said and left out of by-id, never a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunResults } from '../../harness/results/model.ts';
import { jsonAnswer, runThroughProxy, type ProxyMutation } from '../helpers/proxy.ts';

type Bank = Record<string, unknown> & { id: string };
const COPIES = 767;

/** Each listed bank and `n` copies (same fields, ids `<id>-copy-<n>`), in filtered lists too; a copy is read by id like its original. */
function copies(n: number, extraId?: string): ProxyMutation {
  const byId = new Map<string, Bank>();
  return {
    request: x => {
      const m = /^\/api\/banks\/([^/?]+)$/.exec(x.path);
      const copy = m && byId.get(decodeURIComponent(m[1]!));
      if (x.method === 'GET' && copy) return jsonAnswer(copy);
    },
    answer: (x, a) => {
      if (x.method !== 'GET' || x.path !== '/api/banks' || a.status !== 200) return;
      const listed = JSON.parse(a.text) as Bank[];
      const out = [...listed];
      for (const b of listed) for (let i = 0; i < n; i++) {
        const c = { ...b, id: `${b.id}-copy-${i}` };
        byId.set(c.id, c);
        out.push(c);
      }
      // The extra bank is a copy of the first bank the reference lists, in every list that holds that bank.
      const first = 'dnb-no';
      if (extraId !== undefined && listed.some(b => b.id === first)) out.push({ ...listed.find(b => b.id === first)!, id: extraId });
      Object.assign(a, jsonAnswer(out));
    },
  };
}

const mustNotPassed = (r: RunResults) => r.checks.filter(c => c.level === 'must' && (c.status === 'failed' || c.skipKind === 'not-run'))
  .map(c => `${c.id}: ${c.message}`);

test('a 1.72 MB list of 6,144 banks: the bank checks judge it whole and the run is Conformant', async t => {
  const { cli, results } = await runThroughProxy([copies(COPIES)], ['--suites', 'data', '--grep', 'data\\.banks\\.']);
  const out = cli.stdout + cli.stderr;
  assert.ok(results, out);
  assert.deepEqual(mustNotPassed(results), [], out);
  const list = results.checks.find(c => c.id === 'data.banks.list')!;
  assert.match(list.message ?? '', /^6144 banks listed/, out);
  const ev = list.evidence.find(e => e.kind === 'http' && e.response?.bodyBytes);
  assert.ok(ev && ev.kind === 'http' && ev.response!.bodyBytes! > 1024 * 1024, `the list is over 1 MiB: ${ev && ev.kind === 'http' && ev.response?.bodyBytes}`);
  assert.equal(results.summary.verdict, 'conformant', out);
  assert.equal(cli.code, 0, out);
  t.diagnostic(`bank list of ${ev.kind === 'http' && ev.response!.bodyBytes} bytes: ${results.summary.verdict}`);
});

test('a bank id with a lone surrogate is said and not read by id; no check fails on it', async () => {
  const { cli, results } = await runThroughProxy([copies(0, 'bad-\ud800-id')], ['--suites', 'data', '--grep', 'data\\.banks\\.', '--banks', 'all']);
  const out = cli.stdout + cli.stderr;
  assert.ok(results, out);
  assert.deepEqual(mustNotPassed(results), [], out);
  const byId = results.checks.find(c => c.id === 'data.banks.by-id')!;
  assert.equal(byId.status, 'passed', out);
  assert.ok(byId.evidence.some(e => e.kind === 'note' && /lone UTF-16 surrogate/.test(e.text)), JSON.stringify(byId.evidence.filter(e => e.kind === 'note')));
});
