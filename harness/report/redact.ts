// Secrets never reach a report or a log. Two nets, both only over what quotes
// the target: known secret values (client secret, tokens, api-keys) are
// replaced, and fields and headers that carry secrets by name are replaced
// whatever their value, so a token the harness never saw is still hidden.
//
// Redaction follows the results model's structure (result(), evidence(),
// results()): it touches evidence (header values, bodies, URLs, curl lines,
// notes, what a measurement saw, delivery attempts) and the `seen` of a check,
// never the words the harness wrote (ids, titles, levels, statuses, skip kinds,
// messages, expected). A target that issues the access token `must` or `failed`
// therefore cannot change how its results read or are judged; the verdict is
// computed from fields redaction never touches. Messages that quote target
// data redact that data before it is put in (show() in the suites).
import type { CheckResult, DeliveryAttempt, Evidence, RunResults } from '../results/model.ts';
import { Literals } from './literals.ts';

export const REDACTED = '[redacted]';

/**
 * A secret shorter than this is flagged (shortSecrets): it is still hidden by
 * value in evidence, but text of the same spelling is hidden with it
 * (arbitrary: 8 characters is where a random token stops looking like a word).
 */
const SHORT_SECRET = 8;

const SECRET_KEYS = new Set([
  'authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'cookie', 'set-cookie',
  'client_secret', 'clientsecret', 'access_token', 'accesstoken', 'refresh_token', 'refreshtoken',
  'id_token', 'apikey', 'webhook-api-key', 'webhookapikey', 'password',
]);

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

const SECRET_NAMES: Record<string, string> = {
  PIS_CLIENT_SECRET: 'the client secret', PIS_WEBHOOK_API_KEY: 'the webhook api-key',
  PIS_ACCESS_TOKEN: 'an access token the target issued', PIS_REFRESH_TOKEN: 'a refresh token the target issued',
};

/** The warning for a secret shorter than SHORT_SECRET characters (a warning, never a refusal: the run goes on). */
export function shortSecretWarning(placeholder: string): string {
  return `warning: ${SECRET_NAMES[placeholder] ?? 'a secret'} is shorter than ${SHORT_SECRET} characters; the report hides it by value in the evidence, `
    + 'which also hides any text of the same spelling there: use a longer, random value.';
}

/**
 * The parts of a secret's base64 (and base64url) that depend on the secret
 * alone, at each of the three byte offsets it may start at inside a longer
 * encoded text ("id:secret" in a Basic header, a JSON echo in base64).
 */
function base64Spellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (const k of [0, 1, 2]) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64').replace(/=+$/, '');
    const end = (k + bytes.length) % 3 === 0 ? enc.length : enc.length - 1;
    const part = enc.slice([0, 2, 3][k], end);
    out.push(part, part.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(out)].filter(p => p.length >= SHORT_SECRET);
}

export class Redactor {
  /** secret value -> the environment variable a reproducing `curl` line names instead (e.g. PIS_CLIENT_SECRET). */
  private readonly secrets = new Map<string, string>();
  /** Every registered value, however short, for whole-value lookups (the secret places of a curl line). */
  private readonly exact = new Map<string, string>();
  /** Placeholders of the registered secrets shorter than SHORT_SECRET characters (the owner warns about them). */
  readonly shortSecrets = new Set<string>();
  /**
   * Every spelling of every secret, found in one pass: the value, its URL-encoded spelling, and its base64 and base64url
   * spellings at each of the three alignments (a target that echoes a secret encoded).
   */
  private readonly spellings = new Literals<true>();
  /** Each secret and its URL-encoded spelling, to the placeholder that stands for it in curl lines (the last one given). */
  private readonly asPlaceholder = new Literals<string>();
  /** Counts the values given to add(): text redacted at one count holds no secret registered by then. */
  private added = 0;
  /**
   * The evidence items evidence() made, each with the revision it was redacted at: result() keeps an item made at the
   * current revision as it is instead of redacting it again (a check's exchanges are redacted as they are made, and
   * again with the check's result only when a secret was registered meanwhile: a token issued by a later call).
   */
  private readonly made = new WeakMap<Evidence, number>();

  constructor(values: Iterable<string | undefined> = []) {
    for (const v of values) this.add(v);
  }

  /**
   * Registers a secret value and the variable that stands for it in curl lines.
   * Values shorter than 4 characters are ignored (they would mangle ordinary text).
   */
  add(value: string | undefined, placeholder = 'PIS_SECRET'): this {
    if (value) this.added++;
    if (value) this.exact.set(value, placeholder);
    if (value && value.length >= 4) {
      this.secrets.set(value, placeholder);
      const enc = encodeURIComponent(value);
      for (const sp of enc !== value ? [value, enc] : [value]) {
        this.spellings.add(sp, true);
        this.asPlaceholder.add(sp, placeholder);
      }
    }
    if (value && value.length < SHORT_SECRET) this.shortSecrets.add(placeholder);
    if (value && value.length >= SHORT_SECRET) for (const e of base64Spellings(value)) this.spellings.add(e, true);
    return this;
  }

  get size(): number { return this.secrets.size; }

  /** Changes whenever a secret may have been registered: what was redacted at the same revision need not be again. */
  get revision(): number { return this.added; }

  /** The placeholder of a registered value matched whole, also one too short to replace inside text. */
  placeholderOf(value: string): string | undefined {
    return this.exact.get(value);
  }

  /** Replaces known secrets with `$PLACEHOLDER` (for a shell line a reader can run with their own values). */
  placeholders(s: string): string {
    return this.asPlaceholder.replace(s, (_, name) => '$' + name);
  }

  /** Replaces every known secret inside a string, including its URL-encoded form. */
  text(s: string): string {
    let out = s;
    out = this.spellings.replace(out, () => REDACTED);
    // Bearer credentials and form fields carrying secrets by name, whatever their value.
    out = out.replace(/\b(Bearer|Basic)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`);
    out = out.replace(/\b(client_secret|refresh_token|access_token)=(?!%5Bredacted|\[redacted|\$)[^&\s"']*/g, `$1=${REDACTED}`);
    return out;
  }

  /** The text of a JSON body: known secrets by value, and the string values of secret-named fields whatever they are. */
  jsonText(s: string): string {
    return this.text(s).replace(/"((?:[^"\\]|\\.)*)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g,
      (m, k: string, sep: string) => isSecretKey(k) ? `"${k}"${sep}"${REDACTED}"` : m);
  }

  /** Deep copy of target data (a body, a parsed answer) with secrets replaced: by value everywhere, by key for secret-named fields and headers. */
  value<T>(v: T): T {
    return this.walk(v) as T;
  }

  /** Header values: by name for the headers that carry secrets (keeping the scheme of Authorization), by value for the rest. */
  headers(h: Record<string, string>): Record<string, string> {
    return this.value(h);
  }

  /**
   * One evidence item, by its kind: only the parts that quote the target. An unknown kind is treated as target data
   * throughout. An item this redactor made at its current revision comes back as it is: what is added to an item
   * after it was made must be redacted by whoever adds it (a JSON text kept beside a parsed answer is).
   */
  evidence(e: Evidence): Evidence {
    if (this.made.get(e) === this.added) return e;
    const out = this.redactedEvidence(e);
    // An item returned whole (it quotes nothing of the target's) is not marked: it is the caller's own object.
    if (out !== e) this.made.set(out, this.added);
    return out;
  }

  private redactedEvidence(e: Evidence): Evidence {
    switch (e.kind) {
      case 'http': return {
        ...e,
        request: { ...e.request, url: this.text(e.request.url), headers: this.headers(e.request.headers),
          ...(e.request.body !== undefined ? { body: this.value(e.request.body) } : {}) },
        ...(e.response ? { response: { ...e.response, headers: this.headers(e.response.headers),
          ...(e.response.body !== undefined ? { body: this.value(e.response.body) } : {}),
          ...(e.response.bodyText !== undefined ? { bodyText: this.jsonText(e.response.bodyText) } : {}) } } : {}),
        ...(e.error !== undefined ? { error: this.text(e.error) } : {}),
        ...(e.curl !== undefined ? { curl: this.text(e.curl) } : {}),
      };
      case 'note': return { ...e, text: this.text(e.text) };
      case 'measurement': return { ...e, seen: this.text(e.seen) };
      case 'delivery': return { ...e, attempts: e.attempts.map(a => this.attempt(a)) };
      // Numbers the harness measured, under names it chose: nothing of the target's to redact.
      case 'samples': return e;
      default: return this.value(e);
    }
  }

  /** A delivery attempt: its headers, body, path and the ids and status it carried; the sink's own fields (probe, answer, apiKeyCheck, times) as they are. */
  attempt(a: DeliveryAttempt): DeliveryAttempt {
    return {
      ...a, checkoutId: this.text(a.checkoutId), headers: this.headers(a.headers), body: this.text(a.body),
      ...(a.bodyStatus !== undefined ? { bodyStatus: this.text(a.bodyStatus) } : {}),
      ...(a.path !== undefined ? { path: this.text(a.path) } : {}),
    };
  }

  /** A check result: its evidence and what it saw; never its id, title, level, status, message or expected. */
  result(c: CheckResult): CheckResult {
    return { ...c, ...(c.seen !== undefined ? { seen: this.text(c.seen) } : {}), evidence: c.evidence.map(e => this.evidence(e)) };
  }

  /**
   * Finished results: the target's URLs, every check and every delivery; the summary and selection as computed.
   * `clean`: checks this redactor already redacted at its current revision (the report writer's, as each check
   * finished), kept as they are.
   */
  results(r: RunResults, clean: ReadonlySet<CheckResult> = new Set()): RunResults {
    return {
      ...r, target: this.value(r.target), checks: r.checks.map(c => clean.has(c) ? c : this.result(c)),
      ...(r.deliveries ? { deliveries: r.deliveries.map(a => this.attempt(a)) } : {}),
    };
  }

  private walk(v: unknown): unknown {
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map(x => this.walk(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      // Object.keys, not entries: the same members without an array per member (this walks every item a run reports).
      for (const k of Object.keys(v)) {
        const x = (v as Record<string, unknown>)[k];
        if (isSecretKey(k) && x !== undefined && x !== null && x !== '') {
          out[k] = typeof x === 'string' && /^(Bearer|Basic)\s/i.test(x) ? x.replace(/\s.*$/, ` ${REDACTED}`) : REDACTED;
        // `__proto__` defined, not assigned: assigning it would set the copy's prototype and drop the member.
        } else if (k === '__proto__') Object.defineProperty(out, k, { value: this.walk(x), enumerable: true, writable: true, configurable: true });
        else out[k] = this.walk(x);
      }
      return out;
    }
    return v;
  }
}
