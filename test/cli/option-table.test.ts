// A command's parse, its --help and docs/options.md cannot disagree: every
// command of harness/cli.ts has a table (Command.options) that its parser
// reads; the flags it accepts are exactly the rows of that table, each row is
// in its --help and in its section of the page, its help names no other flag,
// an unknown flag is one sentence (the nearest flag when there is one), and a
// variable a table reads is in the environment list for that command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../../harness/errors.ts';
import { ENVIRONMENT } from '../../harness/cli/environment.ts';
import type { Command } from '../../harness/cli/command.ts';
import { parseCommand, parseOptions, type CommandOption } from '../../harness/cli/option-table.ts';
import { COMMANDS, OPTIONS_DOC, optionsDoc } from '../../scripts/options-doc.ts';
import { ROOT } from '../helpers/cli.ts';

/** The flags of one command's section of docs/options.md. */
function documented(page: string, command: string): string[] {
  const section = page.split(/^## /m).find(s => s.startsWith(`${command}\n`));
  assert.ok(section, `docs/options.md has a section for ${command}`);
  return [...section.matchAll(/^\| `--([a-z0-9-]+)/gm)].map(m => m[1]!);
}

/** What the command itself does with argv, up to its parse: 'help' when it got as far as printing its help, else the error. */
async function attempt(c: Command, argv: string[]): Promise<'help' | HarnessError> {
  const write = process.stdout.write;
  let printed = '';
  process.stdout.write = ((s: string) => { printed += s; return true; }) as typeof process.stdout.write;
  try {
    const code = await c.run([...argv, '--help']);
    assert.equal(code, 0);
    assert.equal(printed, c.help.trimEnd() + '\n', `${c.name} ${argv.join(' ')} --help`);
    return 'help';
  } catch (e) {
    if (e instanceof HarnessError) return e;
    throw e;
  } finally {
    process.stdout.write = write;
  }
}

const argvOf = (o: CommandOption) => o.kind === 'switch' ? [`--${o.name}`] : [`--${o.name}`, 'x'];

test('docs/options.md is up to date (run npx tsx scripts/options-doc.ts)', () => {
  assert.equal(readFileSync(OPTIONS_DOC, 'utf8'), optionsDoc());
});

test('every command has its section of docs/options.md: the commands of harness/cli.ts and the command files of harness/cli/', () => {
  const files = readdirSync(join(ROOT, 'harness/cli'))
    .filter(f => f.endsWith('.ts') && /^export const command\b/m.test(readFileSync(join(ROOT, 'harness/cli', f), 'utf8')))
    .map(f => f.replace(/\.ts$/, ''));
  const listed = [...readFileSync(join(ROOT, 'harness/cli.ts'), 'utf8').matchAll(/^ {2}'([a-z-]+)': \{ summary/gm)].map(m => m[1]!);
  const page = [...readFileSync(OPTIONS_DOC, 'utf8').matchAll(/^## ([a-z-]+)$/gm)].map(m => m[1]!);
  assert.deepEqual(COMMANDS.map(c => c.name), listed, 'the page follows pis-conformance --help');
  assert.deepEqual([...files].sort(), [...listed].sort(), 'every command file is a command of harness/cli.ts');
  assert.deepEqual(page, listed);
});

test('each command accepts exactly the flags of its table, and its --help and docs/options.md list exactly those', async () => {
  const page = readFileSync(OPTIONS_DOC, 'utf8');
  for (const c of COMMANDS) {
    const names = c.options.map(o => o.name);
    assert.equal(new Set(names).size, names.length, `${c.name}: a flag twice in its table`);
    assert.deepEqual(documented(page, c.name), names, `${c.name}: docs/options.md rows`);
    assert.deepEqual([...c.help.matchAll(/^ {2}--([a-z0-9-]+)/gm)].map(m => m[1]!), names, `${c.name}: --help rows`);
    assert.match(c.help, /^ {2}-h, --help {14}this text$/m, `${c.name}: --help has its own row`);
    // A flag named after another command's name is that command's ('run --attest').
    const others = COMMANDS.filter(x => x !== c).map(x => x.name).join('|');
    const named = new Set([...c.help.matchAll(new RegExp(`(?<![\\w-]|\\b(?:${others}) )--([a-z][a-z0-9-]*)`, 'g'))].map(m => m[1]!));
    assert.deepEqual([...named].filter(n => !names.includes(n) && n !== 'help' && n !== 'version'), [], `${c.name}: --help names flags it does not take`);
    // The command's own run, not the table alone: each flag gets as far as --help.
    for (const o of c.options) assert.equal(await attempt(c, argvOf(o)), 'help', `${c.name} refuses --${o.name}, which its table lists`);
    for (const o of c.options.filter(x => x.env)) {
      const v = ENVIRONMENT.find(e => e.name === o.env);
      assert.ok(v?.commands.split(', ').includes(c.name), `${o.env} is read by ${c.name}: the environment list says so`);
    }
  }
});

test('no command parses by hand: node:util parseArgs is called by parse-flags.ts only, and its parseFlags by option-table.ts only', () => {
  for (const f of readdirSync(join(ROOT, 'harness/cli'))) {
    const text = readFileSync(join(ROOT, 'harness/cli', f), 'utf8');
    if (f !== 'parse-flags.ts') assert.doesNotMatch(text, /\bparseArgs\b/, `harness/cli/${f} calls parseArgs`);
    if (f !== 'parse-flags.ts' && f !== 'option-table.ts') assert.doesNotMatch(text, /\bparseFlags\b/, `harness/cli/${f} parses by hand: give it a table`);
  }
});

test('an unknown flag stops every command with one sentence, naming the nearest flag of its table', async () => {
  for (const c of COMMANDS) {
    const far = await attempt(c, ['--zzzzzz']);
    assert.ok(far instanceof HarnessError && far.code === 'PIS_BAD_FLAG', `${c.name} takes --zzzzzz`);
    assert.equal(far.message, `Unknown option '--zzzzzz': see 'pis-conformance ${c.name} --help' for the accepted flags.`);
    for (const o of c.options.filter(x => x.name.length >= 5)) {
      // Two letters swapped in the middle: one edit away.
      const at = Math.floor(o.name.length / 2);
      const typo = o.name.slice(0, at - 1) + o.name[at] + o.name[at - 1] + o.name.slice(at + 1);
      if (typo === o.name) continue;
      const e = await attempt(c, [`--${typo}`]);
      assert.ok(e instanceof HarnessError && e.code === 'PIS_BAD_FLAG', `${c.name} takes --${typo}`);
      assert.equal(e.message, `Unknown option '--${typo}': did you mean --${o.name}? (see 'pis-conformance ${c.name} --help')`);
    }
  }
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
  assert.throws(() => parse(['--key', 'k', 'file']), /Unexpected argument 'file'/, 'a command without operands refuses one');

  // Operands: checked as a whole, before the options (a missing file is said before a missing --key).
  const one = (files: string[]) => { if (files.length !== 1) throw new HarnessError('PIS_BAD_FLAG', 'give one file.'); };
  const withFile = (argv: string[]) => parseCommand('t', '', argv, table, { operands: one, env: {} });
  assert.deepEqual(withFile(['a.json', '--key', 'k'])?.operands, ['a.json']);
  assert.throws(() => withFile([]), /give one file/);
  assert.throws(() => withFile(['a', 'b', '--key', 'k']), /give one file/);
  assert.throws(() => withFile(['a']), /give --key/);
});
