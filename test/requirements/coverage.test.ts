// The requirement table: the figures from hand-made lists, and the
// `coverage` command as a user runs it (text, --json, --out with HTML).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coverage } from '../../harness/requirements/coverage.ts';
import type { Proofs, Requirement } from '../../harness/requirements/load.ts';
import { runCli } from '../helpers/cli.ts';

const REQS: Requirement[] = [
  { id: 'R6.5-min-delay', section: '6.5', level: 'must', binds: 'sender', quote: 'minimum delay of 10 seconds' },
  { id: 'R6.3-at-least-once', section: '6.3', level: 'must', binds: 'sender', quote: 'at least once', coverage: 'partial', missing: 'loss' },
  { id: 'R6.7-lost-after-7-days', section: '6.7', level: 'must', binds: 'sender', quote: 'lost', untestable: 'not within a run' },
  { id: 'P-webhook-dates', source: 'docs/profile.md#webhook', level: 'profile', binds: 'sender', quote: 'ISO 8601', uncovered: 'no check yet' },
];
const PROOFS: Proofs = {
  faults: { 'webhook-retry-early': { fails: ['webhook.backoff.min-delay'] } }, mutations: {},
  records: { 'retry-2s-after-500': { fails: ['webhook.backoff.min-delay'] } }, receivers: {},
  cannotFail: { 'webhook.duplicates.counted': 'informational' },
};
// The checks name their requirements; the requirements do not name the checks.
const CHECKS = [
  { id: 'webhook.backoff.min-delay', level: 'must' as const, requirements: ['R6.5-min-delay'] },
  { id: 'webhook.duplicates.counted', level: 'should' as const, requirements: ['R6.3-at-least-once'] },
  { id: 'webhook.backoff.growth', level: 'must' as const, requirements: ['R6.5-min-delay'] },
];

test('the figures count requirements by level and status, and checks by proof', () => {
  const { rows, figures } = coverage(REQS, PROOFS, CHECKS);
  assert.deepEqual(rows.map(r => r.checks.map(c => c.id)),
    [['webhook.backoff.min-delay', 'webhook.backoff.growth'], ['webhook.duplicates.counted'], [], []], 'each row lists the checks that name it');
  assert.deepEqual(rows.map(r => r.status), ['covered', 'partial', 'untestable', 'uncovered']);
  assert.deepEqual(rows.map(r => r.reason), [undefined, 'loss', 'not within a run', 'no check yet']);
  assert.deepEqual(rows[0]!.checks[0]!.proofs, ['fault webhook-retry-early', 'record retry-2s-after-500']);
  assert.equal(rows[3]!.where, 'docs/profile.md#webhook');
  assert.deepEqual(figures.byLevel, { must: 3, should: 0, profile: 1 });
  assert.deepEqual(figures.byStatus, { covered: 1, partial: 1, uncovered: 1, untestable: 1 });
  assert.deepEqual([figures.checks, figures.checksProven, figures.checksCannotFail, figures.checksUnproven], [3, 1, 1, ['webhook.backoff.growth']]);
});

test('a requirement no check names shows as not covered, and says so', () => {
  const { rows } = coverage(REQS, PROOFS, CHECKS.filter(c => c.id === 'webhook.duplicates.counted'));
  assert.deepEqual([rows[0]!.status, rows[0]!.reason, rows[0]!.checks], ['uncovered', 'no check names it in its definition', []]);
});

test('coverage prints the table and the figures; --json and --out write the same data, the page escaped', async () => {
  const text = await runCli(['coverage']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^R6\.5-min-delay +spec 6\.5 +must +covered/m);
  assert.match(text.stdout, /webhook\.backoff\.min-delay \[must\]: .*fault webhook-retry-early/);
  assert.match(text.stdout, /^R6\.7-lost-after-7-days .* untestable\n +untestable: 7-day loss/m);
  assert.match(text.stdout, /^Checks: \d+; proven able to fail \d+/m);

  const dir = mkdtempSync(join(tmpdir(), 'pis-coverage-'));
  try {
    const json = await runCli(['coverage', '--json', '--out', dir]);
    assert.equal(json.code, 0, json.stderr);
    const printed = JSON.parse(json.stdout);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')).figures, printed.figures);
    assert.equal(printed.figures.requirements, printed.requirements.length);
    assert.ok(printed.requirements.some((r: { id: string; since: string; formerly?: string }) =>
      r.id === 'R4.4-confirm-funds' && r.since === '1.0.2' && r.formerly === 'POST /fundsconfirmations'));
    const html = readFileSync(join(dir, 'coverage.html'), 'utf8');
    assert.match(html, /auth\/realms\/&lt;realm&gt;\/protocol/);
    assert.doesNotMatch(html, /<realm>/);
  } finally { rmSync(dir, { recursive: true, force: true }); }

  const help = await runCli(['coverage', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--out DIR/);
  const bad = await runCli(['coverage', '--format', 'x']);
  assert.equal(bad.code, 2);
});
