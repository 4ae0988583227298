// Secrets never reach a report or a log (CONTRACT.md section 2). Two nets:
// known secret values (client secret, tokens, api-keys) are replaced wherever
// they occur, and fields and headers that carry secrets by name are replaced
// whatever their value, so a token the harness never saw is still hidden.

export const REDACTED = '[redacted]';

const SECRET_KEYS = new Set([
  'authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'cookie', 'set-cookie',
  'client_secret', 'clientsecret', 'access_token', 'accesstoken', 'refresh_token', 'refreshtoken',
  'id_token', 'apikey', 'webhook-api-key', 'webhookapikey', 'password',
]);

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

export class Redactor {
  /** secret value -> the environment variable a reproducing `curl` line names instead (e.g. PIS_CLIENT_SECRET). */
  private readonly secrets = new Map<string, string>();
  /** Every registered value, however short, for whole-value lookups (the secret places of a curl line). */
  private readonly exact = new Map<string, string>();

  constructor(values: Iterable<string | undefined> = []) {
    for (const v of values) this.add(v);
  }

  /**
   * Registers a secret value and the variable that stands for it in curl lines.
   * Values shorter than 4 characters are ignored (they would mangle ordinary text).
   */
  add(value: string | undefined, placeholder = 'PIS_SECRET'): this {
    if (value) this.exact.set(value, placeholder);
    if (value && value.length >= 4) this.secrets.set(value, placeholder);
    return this;
  }

  get size(): number { return this.secrets.size; }

  /** The placeholder of a registered value matched whole, also one too short to replace inside text. */
  placeholderOf(value: string): string | undefined {
    return this.exact.get(value);
  }

  /** Replaces known secrets with `$PLACEHOLDER` (for a shell line a reader can run with their own values). */
  placeholders(s: string): string {
    let out = s;
    for (const [secret, name] of this.secrets) {
      out = out.split(secret).join('$' + name);
      const enc = encodeURIComponent(secret);
      if (enc !== secret) out = out.split(enc).join('$' + name);
    }
    return out;
  }

  /** Replaces every known secret inside a string, including its URL-encoded form. */
  text(s: string): string {
    let out = s;
    for (const secret of this.secrets.keys()) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      const enc = encodeURIComponent(secret);
      if (enc !== secret && out.includes(enc)) out = out.split(enc).join(REDACTED);
    }
    // Bearer credentials and form fields carrying secrets by name, whatever their value.
    out = out.replace(/\b(Bearer|Basic)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`);
    out = out.replace(/\b(client_secret|refresh_token|access_token)=(?!%5Bredacted|\[redacted|\$)[^&\s"']*/g, `$1=${REDACTED}`);
    return out;
  }

  /** Deep copy with secrets replaced: by value everywhere, by key for secret-named fields and headers. */
  value<T>(v: T): T {
    return this.walk(v) as T;
  }

  private walk(v: unknown): unknown {
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map(x => this.walk(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (isSecretKey(k) && x !== undefined && x !== null && x !== '') {
          out[k] = typeof x === 'string' && /^(Bearer|Basic)\s/i.test(x) ? x.replace(/\s.*$/, ` ${REDACTED}`) : REDACTED;
        } else out[k] = this.walk(x);
      }
      return out;
    }
    return v;
  }
}
