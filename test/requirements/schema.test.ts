// contracts/requirements.yaml and contracts/proofs.yaml match their schemas,
// and the schemas refuse the mistakes they exist to catch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadProofs, loadRequirements, REQUIREMENTS_FILE } from '../../harness/requirements/load.ts';

const ENTRY = `requirements:
  - id: R6.5-min-delay
    section: '6.5'
    level: must
    binds: sender
    quote: Retries use exponential backoff with a minimum delay of 10 seconds.
`;

test('the requirements and proofs files load', () => {
  const reqs = loadRequirements();
  assert.ok(reqs.length > 90, `${reqs.length} requirements`);
  const proofs = loadProofs();
  assert.ok(Object.keys(proofs.cannotFail).length >= 1);
});

test('an entry needs checks, an untestable reason or an uncovered reason, and only one of them', () => {
  assert.throws(() => loadRequirements(ENTRY), /does not match .*requirements.schema.yaml/);
  assert.doesNotThrow(() => loadRequirements(ENTRY + '    checks: [webhook.backoff.min-delay]\n'));
  assert.doesNotThrow(() => loadRequirements(ENTRY + '    untestable: not observable within a run\n'));
  assert.doesNotThrow(() => loadRequirements(ENTRY + '    uncovered: no check waits that long yet\n'));
  assert.throws(() => loadRequirements(ENTRY + '    checks: [webhook.backoff.min-delay]\n    untestable: both\n'), /does not match/);
});

test('partial coverage says what is missing; a rename says the former name', () => {
  const withChecks = ENTRY + '    checks: [webhook.backoff.min-delay]\n';
  assert.throws(() => loadRequirements(withChecks + '    coverage: partial\n'), /does not match/);
  assert.doesNotThrow(() => loadRequirements(withChecks + '    coverage: partial\n    missing: growth\n'));
  assert.throws(() => loadRequirements(withChecks + "    renamedIn: '3.0.0'\n"), /does not match/);
  assert.doesNotThrow(() => loadRequirements(withChecks + "    renamedIn: '3.0.0'\n    formerly: GET /consent\n"));
  assert.throws(() => loadRequirements(withChecks + "    since: '3.x'\n"), /does not match/);
  assert.doesNotThrow(() => loadRequirements(withChecks + '    since: unversioned\n'));
});

test('ids, levels and sources have their fixed shape', () => {
  const bad = [
    ENTRY.replace('R6.5-min-delay', 'R6.5_min_delay'),
    ENTRY.replace('level: must', 'level: may'),
    ENTRY.replace('binds: sender', 'binds: merchant'),
    ENTRY.replace("section: '6.5'", "source: 'profile#webhook'"),
  ];
  for (const text of bad) assert.throws(() => loadRequirements(text + '    checks: [a.b.c]\n'), /does not match/, text);
});

test('a proof names the exact checks it fails; an empty list is refused', () => {
  const base = 'faults: {}\nmutations: {}\nrecords: {}\nreceivers: {}\ncannotFail: {}\n';
  assert.doesNotThrow(() => loadProofs(base));
  assert.throws(() => loadProofs(base.replace('records: {}', 'records:\n  late-retry:\n    fails: []')), /does not match .*proofs.schema.yaml/);
  assert.throws(() => loadProofs(base.replace('records: {}', 'records:\n  late-retry:\n    fails: [webhook.backoff]')), /does not match/);
  assert.throws(() => loadProofs(base.replace('records: {}', 'records:\n  Late Retry:\n    fails: [webhook.backoff.min-delay]')), /does not match/);
  assert.throws(() => loadProofs(base.replace('cannotFail: {}', 'cannotFail:\n  webhook.duplicates.counted: ""')), /does not match/);
});

test('broken YAML is a harness error that names the file', () => {
  assert.throws(() => loadRequirements('requirements: [\n'), /contracts\/requirements.yaml is not valid YAML/);
  assert.ok(readFileSync(REQUIREMENTS_FILE, 'utf8').startsWith('#'));
});
