// What the options table says outside the code agrees with it: run --help,
// the environment list, the config file's schema in contracts/, docs/cli.md
// and README.md's Environment table (the last three written by
// scripts/options-doc.ts), so none of them lags behind a new or changed option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { command as run } from '../../harness/cli/run.ts';
import { ENVIRONMENT } from '../../harness/cli/environment.ts';
import { shownDefault, TARGET_OPTIONS } from '../../harness/config/options.ts';
import { CLI_DOC, cliDoc, configSchema, README, readmeDoc, SCHEMA_FILE } from '../../scripts/options-doc.ts';

test('contracts/target-config.yaml, docs/cli.md and README.md are up to date (run npx tsx scripts/options-doc.ts)', () => {
  assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), configSchema());
  assert.equal(readFileSync(CLI_DOC, 'utf8'), cliDoc());
  assert.equal(readFileSync(README, 'utf8'), readmeDoc());
});

test('run --help has a row per option, with its variable and default; the environment list has every variable', () => {
  const lines = run.help.split('\n');
  for (const o of TARGET_OPTIONS) {
    const row = lines.find(l => l.startsWith(o.flag ? `  --${o.name} ` : `  ${o.name}: `) || l === `  --${o.name}`);
    assert.ok(row, `run --help has no row for ${o.name}`);
    if (o.env) assert.ok(row.endsWith(` ${o.env}`), `${o.name}: ${row}`);
    const def = shownDefault(o);
    if (def !== undefined) assert.ok(row.includes(`(default ${def})`), `${o.name}: ${row}`);
    if (o.env) {
      const v = ENVIRONMENT.find(e => e.name === o.env);
      assert.ok(v && v.commands.split(', ').includes('run') && v.meaning.includes(`--${o.name}`), `${o.env} in the environment list`);
    }
  }
  assert.ok(TARGET_OPTIONS.filter(o => o.secret).every(o => o.env), 'a secret reaches the workers in its variable: every secret option has one');
});

test('docs/cli.md and README.md show every option and variable in their generated tables', () => {
  const doc = readFileSync(CLI_DOC, 'utf8');
  const readme = readFileSync(README, 'utf8');
  for (const o of TARGET_OPTIONS) {
    const row = doc.split('\n').find(l => l.includes(`| \`${o.name}:`));
    assert.ok(row, `docs/cli.md has no row for ${o.name}`);
    if (o.flag) assert.ok(row.startsWith(`| \`--${o.name}`), row);
    if (o.env) assert.ok(row.includes(`| \`${o.env}\` |`), row);
  }
  for (const v of ENVIRONMENT) assert.ok(readme.includes(`| \`${v.name}\` | ${v.commands} |`), `${v.name} in README.md's Environment table`);
});
