// A command's parse, its --help and docs/options.md cannot disagree: the flags
// certify-receiver, sink and serve-reference accept are the rows of their
// tables (harness/cli/option-table.ts), each in --help and in the page; run's
// accepted flags are each in the page; a variable a table reads is in the
// environment list for that command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../../harness/errors.ts';
import { ENVIRONMENT } from '../../harness/cli/environment.ts';
import { parseOptions, type CommandOption } from '../../harness/cli/option-table.ts';
import { command as certify } from '../../harness/cli/certify-receiver.ts';
import { command as sink } from '../../harness/cli/sink.ts';
import { command as serve } from '../../harness/cli/serve-reference.ts';
import { FLAGS as RUN_FLAGS } from '../../harness/cli/run.ts';
import { COMMAND_TABLES, OPTIONS_DOC, optionsDoc } from '../../scripts/options-doc.ts';

const HELP: Record<string, string> = { 'certify-receiver': certify.help, 'sink': sink.help, 'serve-reference': serve.help };

/** The flags of one command's section of docs/options.md. */
function documented(page: string, command: string): string[] {
  const section = page.split(/^## /m).find(s => s.startsWith(`${command}\n`));
  assert.ok(section, `docs/options.md has a section for ${command}`);
  return [...section.matchAll(/^\| `--([a-z0-9-]+)/gm)].map(m => m[1]!);
}

/** Whether the parser of `table` takes --name: anything but "Unknown option" (a bad or missing value is a later question). */
function accepts(command: string, table: readonly CommandOption[], name: string): boolean {
  const o = table.find(x => x.name === name);
  const argv = o?.kind === 'switch' ? [`--${name}`] : [`--${name}`, 'x'];
  try { parseOptions(command, '', argv, table, {}); } catch (e) {
    if (!(e instanceof HarnessError)) throw e;
    return !/Unknown option/.test(e.message);
  }
  return true;
}

test('docs/options.md is up to date (run npx tsx scripts/options-doc.ts)', () => {
  assert.equal(readFileSync(OPTIONS_DOC, 'utf8'), optionsDoc());
});

test('each table command accepts exactly the flags its --help and docs/options.md list', () => {
  const page = readFileSync(OPTIONS_DOC, 'utf8');
  for (const [command, table] of Object.entries(COMMAND_TABLES)) {
    const names = table.map(o => o.name);
    assert.deepEqual(documented(page, command), names, `${command}: docs/options.md rows`);
    const helpRows = [...HELP[command]!.matchAll(/^ {2}--([a-z0-9-]+)/gm)].map(m => m[1]!).filter(n => n !== 'help');
    assert.deepEqual(helpRows, names, `${command}: --help rows`);
    for (const n of names) assert.ok(accepts(command, table, n), `${command} refuses --${n}, which its table lists`);
    assert.equal(accepts(command, table, 'no-such-flag'), false, `${command} takes a flag its table does not list`);
    for (const o of table.filter(x => x.env)) {
      const v = ENVIRONMENT.find(e => e.name === o.env);
      assert.ok(v?.commands.split(', ').includes(command), `${o.env} is read by ${command}: the environment list says so`);
    }
  }
});

test('every flag run accepts has its row in docs/options.md', () => {
  const rows = documented(readFileSync(OPTIONS_DOC, 'utf8'), 'run');
  assert.deepEqual([...rows].sort(), Object.keys(RUN_FLAGS).sort());
});

test('the shared parser: flag over variable over default, the check of each, one sentence for a bad value', () => {
  const table = [
    { name: 'scale', kind: 'value', env: 'T_SCALE', default: 1, read: (t: string, what: string) => {
      if (!(Number(t) > 0)) throw new HarnessError('PIS_BAD_FLAG', `${what} must be positive, not '${t}'.`);
      return Number(t);
    }, help: 'h' },
    { name: 'key', kind: 'value', required: 'give --key.', help: 'h' },
    { name: 'on', kind: 'switch', help: 'h' },
    { name: 'item', kind: 'list', help: 'h' },
  ] as const satisfies readonly CommandOption[];
  const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseOptions('t', '', argv, table, env);
  assert.deepEqual(parse(['--key', 'k']), { scale: 1, key: 'k', on: false, item: [] });
  assert.deepEqual(parse(['--key', 'k', '--on', '--item', 'a', '--item', 'b'], { T_SCALE: '2' }), { scale: 2, key: 'k', on: true, item: ['a', 'b'] });
  assert.equal(parse(['--key', 'k', '--scale', '3'], { T_SCALE: '2' })?.scale, 3);
  assert.throws(() => parse(['--key', 'k'], { T_SCALE: '0' }), /T_SCALE must be positive, not '0'/);
  assert.throws(() => parse(['--key', 'k', '--scale', 'x']), /--scale must be positive, not 'x'/);
  assert.throws(() => parse([]), (e: unknown) => e instanceof HarnessError && e.code === 'PIS_MISSING_OPTION' && e.message === 'give --key.');
  assert.throws(() => parse(['--key', 'k', '--kye']), /Unknown option/);
});
