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

test('an entry lists no checks: the checks name their requirements, and a list here is refused with the fix', () => {
  const listed = /lists checks under R6.5-min-delay: remove them there and name R6.5-min-delay in each check's requirements/;
  assert.throws(() => loadRequirements(ENTRY + '    checks: [webhook.backoff.min-delay]\n'), listed);
  assert.throws(() => loadRequirements(ENTRY + '    checks: []\n'), listed);
  assert.doesNotMatch(readFileSync(REQUIREMENTS_FILE, 'utf8'), /^\s+(- )?checks:/m, 'contracts/requirements.yaml names checks again');
  const schema = readFileSync(REQUIREMENTS_FILE.replace('requirements.yaml', 'requirements.schema.yaml'), 'utf8');
  assert.doesNotMatch(schema, /^\s+checks:/m, 'the schema allows checks again');
});

test('an entry gives at most one of untestable, uncovered and partial coverage', () => {
  assert.doesNotThrow(() => loadRequirements(ENTRY));
  assert.doesNotThrow(() => loadRequirements(ENTRY + '    untestable: not observable within a run\n'));
  assert.doesNotThrow(() => loadRequirements(ENTRY + '    uncovered: no check waits that long yet\n'));
  assert.throws(() => loadRequirements(ENTRY + '    untestable: a\n    uncovered: b\n'), /does not match/);
  assert.throws(() => loadRequirements(ENTRY + '    untestable: a\n    coverage: partial\n    missing: b\n'), /does not match/);
});

test('partial coverage says what is missing; a rename says the former name', () => {
  assert.throws(() => loadRequirements(ENTRY + '    coverage: partial\n'), /does not match/);
  assert.doesNotThrow(() => loadRequirements(ENTRY + '    coverage: partial\n    missing: growth\n'));
  assert.throws(() => loadRequirements(ENTRY + "    renamedIn: '3.0.0'\n"), /does not match/);
  assert.doesNotThrow(() => loadRequirements(ENTRY + "    renamedIn: '3.0.0'\n    formerly: GET /consent\n"));
  assert.throws(() => loadRequirements(ENTRY + "    since: '3.x'\n"), /does not match/);
  assert.doesNotThrow(() => loadRequirements(ENTRY + '    since: unversioned\n'));
});

test('ids, levels and sources have their fixed shape', () => {
  const bad = [
    ENTRY.replace('R6.5-min-delay', 'R6.5_min_delay'),
    ENTRY.replace('level: must', 'level: may'),
    ENTRY.replace('binds: sender', 'binds: merchant'),
    ENTRY.replace("section: '6.5'", "source: 'profile#webhook'"),
  ];
  for (const text of bad) assert.throws(() => loadRequirements(text), /does not match/, text);
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
