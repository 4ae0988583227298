// A curl line that repeats a request, with secrets as "$PIS_..." variables the
// reader sets: values the redactor knows, wherever they occur, and in the
// places that carry secrets (secret-named headers, form fields and JSON keys)
// also known values too short to replace inside text. A value in such a place
// that the redactor does not know (a deliberately wrong key) stays as sent, so
// the line repeats the request the check made.
import { isSecretKey, type Redactor } from '../report/redact.ts';

type Part = string | { variable: string };

// Stands for a literal $ while the redactor inserts its $PLACEHOLDERS (a private-use character).
const DOLLAR = '\uE000';

/** A value in a secret place: its variable when the redactor knows it, else the value as sent. */
function secretPart(value: string, redactor: Redactor): Part {
  const name = value ? redactor.placeholderOf(value) : undefined;
  return name ? { variable: name } : value;
}

function headerParts(name: string, value: string, redactor: Redactor): Part[] {
  if (!isSecretKey(name)) return [`${name}: ${value}`];
  const scheme = /^(Bearer|Basic)\s+(.*)$/is.exec(value);
  return scheme ? [`${name}: ${scheme[1]} `, secretPart(scheme[2]!, redactor)] : [`${name}: `, secretPart(value, redactor)];
}

function formParts(body: string, redactor: Redactor): Part[] {
  const out: Part[] = [];
  body.split('&').forEach((pair, i) => {
    if (i) out.push('&');
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    let name = key;
    try { name = decodeURIComponent(key.replace(/\+/g, ' ')); } catch { /* keep it raw */ }
    if (eq < 0 || !isSecretKey(name)) { out.push(pair); return; }
    let value = pair.slice(eq + 1);
    try { value = decodeURIComponent(value.replace(/\+/g, ' ')); } catch { /* keep it raw */ }
    const part = secretPart(value, redactor);
    out.push(...(typeof part === 'string' ? [pair] : [`${key}=`, part]));
  });
  return out;
}

function jsonParts(body: string, redactor: Redactor): Part[] | undefined {
  let data: unknown;
  try { data = JSON.parse(body); } catch { return undefined; }
  const marks: Part[] = [];
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const part = isSecretKey(k) && typeof x === 'string' ? secretPart(x, redactor) : undefined;
      if (part && typeof part !== 'string') {
        marks.push(part);
        out[k] = `${DOLLAR}MARK${marks.length - 1}${DOLLAR}`;
      } else out[k] = walk(x);
    }
    return out;
  };
  const text = JSON.stringify(walk(data));
  if (!marks.length) return undefined;
  return text.split(new RegExp(`${DOLLAR}MARK(\\d+)${DOLLAR}`)).map((s, i) => (i % 2 ? marks[Number(s)]! : s));
}

/** One shell word: single-quoted when it holds no variable, else double-quoted with everything but the variables escaped. */
function shellWord(parts: Part[], redactor: Redactor): string {
  const raw = parts.map(p => (typeof p === 'string' ? p.replace(/\$/g, DOLLAR) : `$${p.variable}`)).join('');
  const withVars = redactor.placeholders(raw);
  if (!withVars.includes('$')) return `'${raw.replaceAll(DOLLAR, '$').replace(/'/g, `'\\''`)}'`;
  return `"${withVars.replace(/["\\`]/g, '\\$&').replaceAll(DOLLAR, '\\$')}"`;
}

function isForm(headers: Record<string, string>): boolean {
  return Object.entries(headers).some(([k, v]) => k.toLowerCase() === 'content-type' && /application\/x-www-form-urlencoded/i.test(v));
}

/** A curl line that repeats the request; the URL must already have its userinfo redacted. */
export function curlLine(method: string, url: string, headers: Record<string, string>, body: string | undefined, redactor: Redactor): string {
  const parts = ['curl -sS', '-X', method, shellWord([url], redactor)];
  for (const [k, v] of Object.entries(headers)) parts.push('-H', shellWord(headerParts(k, v, redactor), redactor));
  if (body !== undefined) {
    const b = isForm(headers) ? formParts(body, redactor) : jsonParts(body, redactor) ?? [body];
    parts.push('--data-raw', shellWord(b, redactor));
  }
  return parts.join(' ');
}
