// contracts/proofs.yaml against everything it names: every check has a proof
// that it can fail or a reason it cannot; every proof exists where it is
// defined and names real checks under its own prefix. Whether each proof
// still makes its checks fail is shown where the proofs run: test/run/catalog
// (API faults), test/sink/reference-faults-* (webhook faults),
// test/suites/mutations, test/sink/analysis (records), test/certify/faults and
// timing (receivers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG } from '../../suites/catalog/index.ts';
import { FAULTS } from '../../harness/reference/catalog.ts';
import { loadProofs, type Proofs } from '../../harness/requirements/load.ts';
import type { Level } from '../../harness/results/model.ts';
import { proofProblems, type ProofSources } from '../../harness/requirements/rules.ts';
import { RECEIVER_FAULTS } from '../fixtures/receivers/faults.ts';
import { MUTATIONS } from '../suites/mutations.ts';
import { RECORDS } from '../sink/records.ts';

const SOURCES: ProofSources = {
  checks: CATALOG, faults: FAULTS, receivers: RECEIVER_FAULTS,
  mutations: Object.keys(MUTATIONS), records: Object.keys(RECORDS),
};

test('every check has a proof that it can fail, or a reason it cannot; every proof is defined and names real checks', () => {
  assert.deepEqual(proofProblems(loadProofs(), SOURCES), []);
});

// The rules on a small hand-made registry: each mistake is caught, with a sentence that names the fix.
const empty = (): Proofs => ({ faults: {}, mutations: {}, records: {}, receivers: {}, cannotFail: {} });
const small: ProofSources = {
  checks: [{ id: 'webhook.backoff.min-delay', level: 'must' }, { id: 'webhook.duplicates.counted', level: 'should' }],
  faults: [{ name: 'webhook-retry-early', prefix: 'webhook.backoff', level: 'must' }],
  receivers: [], mutations: [], records: ['retry-2s-after-500'],
};
const valid = (): Proofs => ({
  ...empty(),
  faults: { 'webhook-retry-early': { fails: ['webhook.backoff.min-delay'] } },
  records: { 'retry-2s-after-500': { fails: ['webhook.backoff.min-delay'] } },
  cannotFail: { 'webhook.duplicates.counted': 'informational' },
});

test('the rules accept a complete registry', () => {
  assert.deepEqual(proofProblems(valid(), small), []);
});

test('a check with no proof and no reason fails, and so does one with both', () => {
  const p = valid();
  delete p.cannotFail['webhook.duplicates.counted'];
  assert.match(proofProblems(p, small).join('\n'), /check webhook.duplicates.counted has no proof that it can fail/);
  const q = valid();
  q.cannotFail['webhook.backoff.min-delay'] = 'says so';
  assert.match(proofProblems(q, small).join('\n'), /has a proof and a reason it cannot fail/);
});

test('a proof outside its prefix, of an unknown check, or not defined anywhere fails', () => {
  const p = valid();
  p.faults['webhook-retry-early']!.fails.push('webhook.duplicates.counted');
  assert.match(proofProblems(p, small).join('\n'), /names webhook.duplicates.counted, outside its prefix webhook.backoff/);
  const q = valid();
  q.records['retry-2s-after-500']!.fails.push('webhook.backoff.gone');
  assert.match(proofProblems(q, small).join('\n'), /records retry-2s-after-500 names check webhook.backoff.gone, which does not exist/);
  const r = valid();
  r.mutations['no-such-mutation'] = { fails: ['webhook.backoff.min-delay'] };
  assert.match(proofProblems(r, small).join('\n'), /mutations no-such-mutation of contracts\/proofs.yaml is not defined/);
});

test('a catalog fault or a record without an entry fails', () => {
  const p = valid();
  delete p.faults['webhook-retry-early'];
  delete p.records['retry-2s-after-500'];
  const problems = proofProblems(p, small).join('\n');
  assert.match(problems, /catalog fault webhook-retry-early has no entry under faults/);
  assert.match(problems, /test\/sink\/records.ts defines retry-2s-after-500, which contracts\/proofs.yaml does not list/);
});

/**
 * A breaker whose catalog level is not the level its checks are registered at
 * (the highest among the checks its proof fails): severity is given at
 * registration, and the catalog's level only says which verdict the fault
 * brings about, so it must follow.
 */
function breakerLevelProblems(proofs: Proofs, src: Pick<ProofSources, 'checks' | 'faults' | 'receivers'>): string[] {
  const levelOf = new Map(src.checks.map(c => [c.id, c.level]));
  const rank: Record<Level, number> = { must: 0, should: 1, profile: 2 };
  return (['faults', 'receivers'] as const).flatMap(kind => src[kind].flatMap(b => {
    const levels = (proofs[kind][b.name]?.fails ?? []).map(id => levelOf.get(id)).filter((l): l is Level => l !== undefined);
    const top = levels.sort((x, y) => rank[x] - rank[y])[0];
    return top === undefined || top === b.level ? []
      : [`${kind} ${b.name} has level ${b.level} but the checks it fails are registered ${top}: give it level ${top}`];
  }));
}

test('every catalog and sample receiver fault has the level its checks are registered at', () => {
  assert.deepEqual(breakerLevelProblems(loadProofs(), SOURCES), []);
});

test('a fault whose level is not its checks\' registered level fails', () => {
  assert.deepEqual(breakerLevelProblems(valid(), small), []);
  const wrong = { ...small, faults: [{ ...small.faults[0]!, level: 'should' as const }] };
  assert.match(breakerLevelProblems(valid(), wrong).join('\n'), /faults webhook-retry-early has level should but the checks it fails are registered must/);
});
