// pis-conformance validate FILE...: checks webhook bodies, token responses (and,
// with --as, any contract) read from JSON or JSON-lines files. One line per
// item, violations indented under it, a summary line last.
// Exit status (CONTRACT.md 1): 0 every item valid (`should` findings are
// warnings), 1 an item breaks a `must`, 2 the input could not be read or an
// item's kind could not be told.
import { HarnessError } from '../errors.ts';
import { parseFlags, type Command } from './command.ts';
import {
  CONTRACT_NAMES, checkWebhookBody, classifyItem, isConformant, validateContract, type ContractName, type Violation,
} from '../contracts/index.ts';
import { expandPaths, readItems, type InputItem } from '../contracts/input.ts';

const ALIASES: Record<string, ContractName | 'webhook'> = {
  normal: 'webhook-normal', batch: 'webhook-batch', older: 'webhook-older', token: 'token-response', webhook: 'webhook',
};
const KINDS = ['webhook', ...Object.keys(ALIASES).filter(k => k !== 'webhook'), ...CONTRACT_NAMES];

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
  --as KIND      validate every item as KIND: webhook (any webhook body kind),
                 normal, batch, older, token, or a contract name:
                 ${CONTRACT_NAMES.join(', ')}
  --no-profile   do not print findings of level profile (profile.md decisions)
  --json         print one JSON object per item instead (file, line, kind,
                 verdict valid|invalid|unknown, violations), and no summary
  -h, --help     this help

Prints one line per item (file:line, kind, verdict) and, under it, each
finding with its level, JSON pointer, expected and found value, spec section.
Exit status: 0 all items valid (should/profile findings are warnings),
1 an item breaks a must, 2 the input could not be read or an item's kind
could not be told.`;

type Kind = ContractName | 'webhook';

function resolveKind(value: string | undefined): Kind | undefined {
  if (value === undefined) return undefined;
  const kind = ALIASES[value] ?? (CONTRACT_NAMES.includes(value as ContractName) ? value as ContractName : undefined);
  if (!kind) throw new HarnessError('PIS_BAD_FLAG', `--as ${value} is not a kind: use one of ${KINDS.join(', ')}.`);
  return kind;
}

interface Verdict { item: InputItem; kind: string; violations: Violation[]; unknown?: string }

function judge(item: InputItem, as: Kind | undefined): Verdict {
  if (as === 'webhook') {
    const r = checkWebhookBody(item.value);
    return { item, kind: r.kind === 'unknown' ? 'webhook' : `webhook-${r.kind}`, violations: r.violations };
  }
  if (as) return { item, kind: as, violations: validateContract(as, item.value) };
  const detected = classifyItem(item.value);
  if (detected === 'unknown') {
    const what = Array.isArray(item.value) ? 'an array' : item.value === null ? 'null' : typeof item.value === 'object' ? 'an object whose fields fit neither' : `a ${typeof item.value}`;
    return { item, kind: 'unknown', violations: [], unknown: `neither a webhook body nor a token response (${what}); say what it is with --as KIND` };
  }
  const name: ContractName = detected === 'normal' || detected === 'batch' || detected === 'older' ? `webhook-${detected}` : detected;
  return { item, kind: name, violations: validateContract(name, item.value) };
}

function render(v: Verdict, showProfile: boolean): string[] {
  const where = `${v.item.file}:${v.item.line}`;
  if (v.unknown) return [`${where}  unknown  cannot validate: ${v.unknown}`];
  const shown = v.violations.filter(x => showProfile || x.level !== 'profile');
  const count = (level: string, word: string) => {
    const n = shown.filter(x => x.level === level).length;
    return n ? [`${n} ${word}${n === 1 ? '' : 's'}`] : [];
  };
  const must = count('must', 'violation');
  const rest = [...count('should', 'warning'), ...count('profile', 'profile note')];
  const verdict = must.length ? `INVALID (${[...must, ...rest].join(', ')})` : rest.length ? `valid (${rest.join(', ')})` : 'valid';
  return [`${where}  ${v.kind}  ${verdict}`,
    ...shown.map(x => `    ${x.level.padEnd(7)} ${x.pointer || '(whole item)'}: expected ${x.expected}, found ${x.found}  [spec ${x.spec}, ${x.rule}]`)];
}

/** One item as a JSON line, for tools that read the verdicts. */
function asJson(v: Verdict, showProfile: boolean): string {
  const verdict = v.unknown ? 'unknown' : isConformant(v.violations) ? 'valid' : 'invalid';
  return JSON.stringify({ file: v.item.file, line: v.item.line, kind: v.kind, verdict,
    ...(v.unknown ? { reason: v.unknown } : {}), violations: v.violations.filter(x => showProfile || x.level !== 'profile') });
}

/**
 * Writes to stdout and waits until the data is handed over: the CLI exits with
 * process.exit() right after run() returns, which would cut a long output
 * short when stdout is a pipe. A reader that hung up early (EPIPE, `| head`) is not an error.
 */
function writeAll(text: string): Promise<void> {
  // The stream also emits the error as an event (after the callback): without a listener it would crash with a stack trace.
  process.stdout.on('error', () => { /* reported through the write callback below */ });
  return new Promise((resolve, reject) => process.stdout.write(text, e => {
    if (!e || (e as NodeJS.ErrnoException).code === 'EPIPE') resolve();
    else reject(new HarnessError('PIS_INTERNAL', `Cannot write the verdicts to standard output (${e.message}).`));
  }));
}

export const command: Command = {
  name: 'validate',
  help,
  async run(argv) {
    const args = parseFlags('validate', help, argv, { 'as': { type: 'string' }, 'no-profile': { type: 'boolean' }, 'json': { type: 'boolean' } }, true);
    if (!args) return 0;
    if (!args.positionals.length) throw new HarnessError('PIS_MISSING_OPTION', "No file given: name one or more JSON or JSON-lines files, e.g. 'pis-conformance validate bodies.jsonl'.");
    const as = resolveKind(args.values.as as string | undefined);
    // Read every file first: bad input stops the run before any verdict is printed.
    const items = expandPaths(args.positionals).flatMap(f => readItems(f));
    const verdicts = items.map(i => judge(i, as));
    const showProfile = !args.values['no-profile'];
    const lines = args.values.json ? verdicts.map(v => asJson(v, showProfile)) : verdicts.flatMap(v => render(v, showProfile));

    const unknown = verdicts.filter(v => v.unknown).length;
    const invalid = verdicts.filter(v => !v.unknown && !isConformant(v.violations)).length;
    const warned = verdicts.filter(v => !v.unknown && isConformant(v.violations) && v.violations.some(x => x.level === 'should')).length;
    const valid = verdicts.length - unknown - invalid;
    if (!args.values.json) lines.push(`validate: ${verdicts.length} item${verdicts.length === 1 ? '' : 's'}, ${valid} valid${warned ? ` (${warned} with warnings)` : ''}, ${invalid} invalid${unknown ? `, ${unknown} of unknown kind` : ''}`);
    await writeAll(lines.join('\n') + '\n');
    if (unknown) {
      process.stderr.write(`pis-conformance validate: ${unknown} item${unknown === 1 ? ' is' : 's are'} neither a webhook body nor a token response: name the kind with --as KIND (see --help).\n`);
      return 2;
    }
    return invalid ? 1 : 0;
  },
};
