// The conventions every command keeps, as a user meets them: --version and
// `help <command>`, a did-you-mean for a mistyped flag or command, one colour
// rule (NO_COLOR, FORCE_COLOR, terminal or not), config errors that name a
// setting that exists, and every environment variable documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colourOn, palette, stripAnsi } from '../../harness/report/colour.ts';
import { ENVIRONMENT, INTERNAL, PLACEHOLDERS } from '../../harness/cli/environment.ts';
import { ERROR_CODES } from '../../harness/errors.ts';
import { nearest } from '../../harness/flag-values.ts';
import { runCli, ROOT } from '../helpers/cli.ts';

/** Every command file of harness/cli/ (those that export a command), so a new command is held to the same conventions. */
const COMMANDS = readdirSync(join(ROOT, 'harness/cli'))
  .filter(f => f.endsWith('.ts') && /^export const command\b/m.test(readFileSync(join(ROOT, 'harness/cli', f), 'utf8')))
  .map(f => f.replace(/\.ts$/, ''));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

test('every command answers --version, and help <command> prints its --help', async () => {
  assert.ok(COMMANDS.length >= 6 && COMMANDS.includes('run') && COMMANDS.includes('validate'), COMMANDS.join(', '));
  // Two processes per command, a command at a time: the machine is shared.
  for (const c of COMMANDS) {
    const { command } = await import(`../../harness/cli/${c}.ts`) as { command: { help: string } };
    const [version, help] = await Promise.all([runCli([c, '--version']), runCli(['help', c])]);
    assert.equal(version.code, 0, `${c} --version: ${version.stderr}`);
    assert.equal(version.stdout, `${pkg.name} ${pkg.version}\n`, c);
    assert.equal(help.code, 0, `help ${c}: ${help.stderr}`);
    assert.equal(help.stdout, command.help.trimEnd() + '\n', c);
  }
});

test('a mistyped flag or command names the one that exists, exit 2, one sentence', async () => {
  const [flag, command, help, far] = await Promise.all([
    runCli(['run', '--suite', 'token']),
    runCli(['valdiate', 'x.json']),
    runCli(['help', 'sinc']),
    runCli(['validate', '--zzzzzz', 'x.json']),
  ]);
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /Unknown option '--suite': did you mean --suites\?/);
  assert.equal(command.code, 2);
  assert.match(command.stderr, /unknown command 'valdiate': did you mean 'validate'\?/);
  assert.equal(help.code, 2);
  assert.match(help.stderr, /did you mean 'sink'\?/);
  assert.equal(far.code, 2);
  assert.doesNotMatch(far.stderr, /did you mean/);
  for (const r of [flag, command, help, far]) assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.equal(nearest('max-wiat', ['max-wait', 'workers']), 'max-wait');
  assert.equal(nearest('grep', ['suites', 'report']), undefined);
});

test('colour: on a terminal only, off with NO_COLOR, FORCE_COLOR wins both ways; every command follows it', async () => {
  const tty = { isTTY: true }, pipe = { isTTY: false };
  assert.equal(colourOn(tty, {}), true);
  assert.equal(colourOn(pipe, {}), false);
  assert.equal(colourOn(tty, { NO_COLOR: '1' }), false);
  assert.equal(colourOn(tty, { NO_COLOR: '' }), true, 'an empty NO_COLOR does not count (no-color.org)');
  assert.equal(colourOn(tty, { TERM: 'dumb' }), false);
  assert.equal(colourOn(pipe, { FORCE_COLOR: '1' }), true);
  assert.equal(colourOn(tty, { FORCE_COLOR: '0' }), false);
  assert.equal(colourOn(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }), true);
  const p = palette(pipe, { FORCE_COLOR: '1' });
  assert.equal(stripAnsi(p.red('x')), 'x');
  assert.notEqual(p.red('x'), 'x');

  const body = join(ROOT, 'test/fixtures/contracts/invalid/normal-missing-id.json');
  const [forced, plain, noColour] = await Promise.all([
    runCli(['validate', body], { env: { FORCE_COLOR: '1', NO_COLOR: '' } }),
    runCli(['validate', body], { env: { FORCE_COLOR: '', NO_COLOR: '' } }),
    runCli(['validate', body], { env: { FORCE_COLOR: '', NO_COLOR: '1' } }),
  ]);
  assert.match(forced.stdout, /\u001b\[31mINVALID/);
  assert.doesNotMatch(plain.stdout + noColour.stdout, /\u001b\[/);
  assert.equal(stripAnsi(forced.stdout), plain.stdout);
});

test('a bad setting that has no flag is named as the config key it is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-conventions-'));
  try {
    writeFileSync(join(dir, 'target.yaml'), 'redirectUrl: not-a-url\n');
    const r = await runCli(['run', '--config', join(dir, 'target.yaml'), '--auth-url', 'http://127.0.0.1:9', '--client-id', 'c', '--suites', 'token'],
      { env: { PIS_CLIENT_SECRET: 'some-secret' } });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /target\.yaml: 'redirectUrl' 'not-a-url' is not a URL/);
    assert.doesNotMatch(r.stderr, /--redirect-url/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every PIS_ variable the harness knows is documented in --help and README, or is internal', async () => {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : []);
  const named = new Set<string>();
  for (const folder of ['harness', 'suites', 'bin'])
    for (const f of walk(join(ROOT, folder))) for (const m of readFileSync(f, 'utf8').matchAll(/\bPIS_[A-Z0-9_]+\b/g)) named.add(m[0]);
  const documented = new Set(ENVIRONMENT.map(v => v.name));
  const unknown = [...named].filter(n => !documented.has(n) && !INTERNAL.includes(n) && !PLACEHOLDERS.includes(n) && !(n in ERROR_CODES));
  assert.deepEqual(unknown, [], 'PIS_ names in the code that are neither documented, internal, placeholders nor error codes');
  const help = await runCli(['--help']);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const v of ENVIRONMENT) {
    assert.match(help.stdout, new RegExp(`^  ${v.name} `, 'm'), `${v.name} in --help`);
    assert.ok(readme.includes(`\`${v.name}\``), `${v.name} in README.md`);
  }
  for (const p of PLACEHOLDERS.filter(n => n !== 'PIS_SECRET')) assert.ok(readme.includes(`$${p}`), `${p} explained in README.md`);
});
