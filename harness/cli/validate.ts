// pis-conformance validate FILE...: checks webhook bodies, token responses (and,
// with --as, any contract) read from JSON or JSON-lines files. One line per
// item, violations indented under it, a summary line last; a place that is not
// JSON gets a line of its own and the items around it are still judged.
// Exit status: 0 every item valid (`should` findings are warnings), 1 an item
// breaks a `must` or a place could not be read, 2 nothing could be read at all
// or an item's kind could not be told.
import { HarnessError } from '../errors.ts';
import type { Command } from './command.ts';
import { optionsHelp, parseCommand, type CommandOption } from './option-table.ts';
import {
  CONTRACT_NAMES, checkWebhookBody, classifyItem, isConformant, validateContract, type ContractName, type Violation,
} from '../contracts/index.ts';
import { palette, type Palette } from '../report/colour.ts';
import { expandPaths, readEntries, type InputItem, type Unreadable } from '../contracts/input.ts';

const ALIASES: Record<string, ContractName | 'webhook'> = {
  normal: 'webhook-normal', batch: 'webhook-batch', older: 'webhook-older', token: 'token-response', webhook: 'webhook',
};
type Kind = ContractName | 'webhook';

const KINDS = ['webhook', ...Object.keys(ALIASES).filter(k => k !== 'webhook'), ...CONTRACT_NAMES];

/** Every option of validate: its flags, --help rows and docs/options.md come from here. */
const OPTIONS = [
  { name: 'as', kind: 'value', arg: 'KIND', read: (text: string) => resolveKind(text), help: 'validate every item as KIND', more: [
    'webhook (any webhook body kind), normal, batch, older, token, or a contract name:', CONTRACT_NAMES.join(', ')] },
  { name: 'no-profile', kind: 'switch', help: 'do not print findings of level profile (docs/profile.md decisions)' },
  { name: 'json', kind: 'switch', help: 'print one JSON object per item instead, and no summary', more: [
    'its file, line, kind, verdict (valid, invalid, unknown, unreadable) and violations'] },
] as const satisfies readonly CommandOption[];

const help = `Usage: pis-conformance validate [--as KIND] [--no-profile] [--json] FILE...

Validates each item of each FILE against the contracts (contracts/*.yaml) and
the rules of the spec a schema cannot state. A FILE holds one JSON value, a
JSON array of items, JSON lines (one value per line) or several JSON values
one after another; '-' reads stdin; a folder stands for every .json, .jsonl
and .ndjson file under it.

Without --as, each item's kind is told from its fields: a normal, batch or
older-variant webhook body (spec 2.2, 2.3, 2.5), a token response (2.1) or a
token error (RFC 6749 5.2).

Options:
${optionsHelp(OPTIONS)}

Prints one line per item (file:line, kind, verdict) and, under it, each
finding with its level, JSON pointer, expected and found value, spec section.
Besides the contracts, the JSON text itself is judged: a field name given
twice in one object (a receiver's parser may keep either value; RFC 8259 4)
and bytes that are not UTF-8 (RFC 8259 8.1) are findings of the item. A place
that is not JSON (a cut-off line) is reported with its line and column, and
reading goes on at the next line that starts a value.
Files are read as a stream: a large JSON array takes about as long as the
same items as JSON lines, and memory does not grow with the file.

Exit status: 0 all items valid (should/profile findings are warnings),
1 an item breaks a must or a place could not be read, 2 nothing could be
read at all, or an item's kind could not be told.`;

function resolveKind(value: string): Kind {
  const kind = ALIASES[value] ?? (CONTRACT_NAMES.includes(value as ContractName) ? value as ContractName : undefined);
  if (!kind) throw new HarnessError('PIS_BAD_FLAG', `--as ${value} is not a kind: use one of ${KINDS.join(', ')}.`);
  return kind;
}

interface Verdict { item: InputItem; kind: string; violations: Violation[]; unknown?: string }

function judge(item: InputItem, as: Kind | undefined): Verdict {
  const v = judgeValue(item, as);
  // What the JSON text itself breaks (duplicate names, bad UTF-8) comes before the contract's findings of its level.
  return item.findings.length ? { ...v, violations: [...item.findings, ...v.violations].sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]) } : v;
}

const LEVEL_ORDER = { must: 0, should: 1, profile: 2 } as const;

function judgeValue(item: InputItem, as: Kind | undefined): Verdict {
  if (as === 'webhook') {
    const r = checkWebhookBody(item.value);
    return { item, kind: r.kind === 'unknown' ? 'webhook' : `webhook-${r.kind}`, violations: r.violations };
  }
  if (as) return { item, kind: as, violations: validateContract(as, item.value) };
  const detected = classifyItem(item.value);
  if (detected === 'unknown') {
    const what = Array.isArray(item.value) ? 'an array' : item.value === null ? 'null'
      : typeof item.value === 'object' ? 'an object whose fields fit neither' : `a ${typeof item.value}`;
    return { item, kind: 'unknown', violations: [], unknown: `neither a webhook body nor a token response (${what}); say what it is with --as KIND` };
  }
  const name: ContractName = detected === 'normal' || detected === 'batch' || detected === 'older' ? `webhook-${detected}` : detected;
  return { item, kind: name, violations: validateContract(name, item.value) };
}

const where = (e: { file: string; line?: number; column?: number }) => [e.file, e.line, e.column].filter(x => x !== undefined).join(':');
const specOf = (spec: string) => (/^\d/.test(spec) ? `spec ${spec}` : spec);

function render(v: Verdict, showProfile: boolean, c: Palette): string[] {
  if (v.unknown) return [`${where(v.item)}  unknown  ${c.yellow('cannot validate')}: ${v.unknown}`];
  const shown = v.violations.filter(x => showProfile || x.level !== 'profile');
  const count = (level: string, word: string) => {
    const n = shown.filter(x => x.level === level).length;
    return n ? [`${n} ${word}${n === 1 ? '' : 's'}`] : [];
  };
  const must = count('must', 'violation');
  const rest = [...count('should', 'warning'), ...count('profile', 'profile note')];
  const verdict = must.length ? c.red(`INVALID (${[...must, ...rest].join(', ')})`) : rest.length ? c.green(`valid (${rest.join(', ')})`) : c.green('valid');
  const level = (l: string) => (l === 'must' ? c.red : l === 'should' ? c.yellow : c.grey)(l.padEnd(7));
  return [`${where(v.item)}  ${v.kind}  ${verdict}`,
    ...shown.map(x => `    ${level(x.level)} ${x.pointer || '(whole item)'}: expected ${x.expected}, found ${x.found}  [${specOf(x.spec)}, ${x.rule}]`)];
}

/** One item as a JSON line, for tools that read the verdicts. */
function asJson(v: Verdict, showProfile: boolean): string {
  const verdict = v.unknown ? 'unknown' : isConformant(v.violations) ? 'valid' : 'invalid';
  return JSON.stringify({ file: v.item.file, line: v.item.line, kind: v.kind, verdict,
    ...(v.unknown ? { reason: v.unknown } : {}), violations: v.violations.filter(x => showProfile || x.level !== 'profile') });
}

function unreadableLine(u: Unreadable, json: boolean, c: Palette): string {
  return json ? JSON.stringify({ file: u.file, line: u.line ?? null, column: u.column ?? null, kind: 'unreadable', verdict: 'unreadable', reason: u.reason })
    : `${where(u)}  unreadable  ${c.red(u.line === undefined ? u.reason : `not JSON: ${u.reason}`)}`;
}

/**
 * Standard output that waits when the pipe is full (a 100 MB input makes
 * megabytes of verdicts) and goes quiet when the reader hung up (EPIPE, `| head`).
 */
class Output {
  private buffered: string[] = [];
  private size = 0;
  private closed = false;
  constructor() {
    process.stdout.on('error', e => {
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') this.closed = true;
      else throw new HarnessError('PIS_INTERNAL', `Cannot write the verdicts to standard output (${e.message}).`);
    });
  }
  async line(text: string): Promise<void> {
    this.buffered.push(text);
    this.size += text.length;
    if (this.size > 1 << 16) await this.flush();
  }
  async flush(): Promise<void> {
    const text = this.buffered.length ? this.buffered.join('\n') + '\n' : '';
    this.buffered = []; this.size = 0;
    if (this.closed || !text) return;
    await new Promise<void>(resolve => process.stdout.write(text, () => resolve()));
  }
}

export const command: Command = {
  name: 'validate',
  help,
  options: OPTIONS,
  async run(argv) {
    const args = parseCommand('validate', help, argv, OPTIONS, { operands: files => {
      if (!files.length)
        throw new HarnessError('PIS_MISSING_OPTION', "No file given: name one or more JSON or JSON-lines files, e.g. 'pis-conformance validate bodies.jsonl'.");
    } });
    if (!args) return 0;
    const { as, json } = args.values;
    const showProfile = !args.values['no-profile'];
    const out = new Output();
    const colour = palette();
    const n = { items: 0, invalid: 0, unknown: 0, warned: 0, unreadable: 0 };
    let firstUnreadable: Unreadable | undefined;
    // Each item is judged and printed as it is read: the output starts at once and memory stays flat.
    for (const file of expandPaths(args.operands)) {
      for await (const entry of readEntries(file)) {
        if (entry.kind === 'unreadable') {
          n.unreadable++;
          firstUnreadable ??= entry;
          await out.line(unreadableLine(entry, json, colour));
          continue;
        }
        const v = judge(entry, as);
        n.items++;
        if (v.unknown) n.unknown++;
        else if (!isConformant(v.violations)) n.invalid++;
        else if (v.violations.some(x => x.level === 'should')) n.warned++;
        for (const l of json ? [asJson(v, showProfile)] : render(v, showProfile, colour)) await out.line(l);
      }
    }
    const valid = n.items - n.unknown - n.invalid;
    if (!json)
      await out.line(`validate: ${n.items} item${n.items === 1 ? '' : 's'}, ${valid} valid${n.warned ? ` (${n.warned} with warnings)` : ''}, ` +
        `${n.invalid} invalid${n.unknown ? `, ${n.unknown} of unknown kind` : ''}` +
        `${n.unreadable ? `; ${n.unreadable} place${n.unreadable === 1 ? '' : 's'} not readable as JSON` : ''}`);
    await out.flush();
    if (!n.items && firstUnreadable) {
      process.stderr.write(`pis-conformance validate: ${firstUnreadable.sentence}\n`);
      return 2;
    }
    if (n.unknown) {
      process.stderr.write(`pis-conformance validate: ${n.unknown} item${n.unknown === 1 ? ' is' : 's are'} neither a webhook body nor a token response: ` +
        'name the kind with --as KIND (see --help).\n');
      return 2;
    }
    return n.invalid || n.unreadable ? 1 : 0;
  },
};
