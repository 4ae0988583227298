// Credentials written into a target URL (https://user:pass@host/...): sent as
// Basic authorization, never shown. Only the userinfo is touched; the rest of
// the URL stays exactly as given.
//
// Found where the WHATWG URL parser finds it, in every form it accepts for
// http(s): any number of slashes or backslashes after the scheme, none at all
// (`http:alice:pw@host`), leading spaces or control characters. A URL the
// pattern misses but the parser still reads credentials from is rebuilt
// without them.

// The authority runs to the first / \ ? or #; its userinfo ends at its last @.
const USERINFO = /^([\u0000-\u0020]*[a-z][a-z0-9+.-]*:[\\/]*)([^\\/?#]*)@/i;

/**
 * The credentials the WHATWG parser reads from `url`, or undefined when it reads none (or cannot parse it). The
 * parser takes userinfo only before an "@", so a URL without one is not parsed: every exchange passes here twice.
 */
function parsedCredentials(url: string): URL | undefined {
  if (!url.includes('@')) return undefined;
  try {
    const u = new URL(url);
    return u.username || u.password ? u : undefined;
  } catch { return undefined; }
}

/** The URL with any userinfo replaced by [redacted], for reports, logs, curl lines and error sentences (a URL that does not parse too). */
export function redactUrlUserinfo(url: string): string {
  const out = url.replace(USERINFO, '$1[redacted]@');
  const u = parsedCredentials(out);
  if (!u || (u.username === '%5Bredacted%5D' && !u.password)) return out;
  u.username = ''; u.password = '';
  return u.href.replace(/^([a-z][a-z0-9+.-]*:\/\/)/i, '$1[redacted]@');
}

/** The URL without its userinfo, and the Basic authorization header value the userinfo stands for. */
export function splitUserinfo(url: string): { url: string; authorization?: string } {
  const decode = (s: string) => { try { return decodeURIComponent(s); } catch { return s; } };
  const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${decode(user)}:${decode(pass)}`, 'utf8').toString('base64')}`;
  const m = USERINFO.exec(url);
  if (m) {
    const [user = '', ...rest] = m[2]!.split(':');
    return { url: m[1] + url.slice(m[0].length), authorization: basic(user, rest.join(':')) };
  }
  const u = parsedCredentials(url);
  if (!u) return { url };
  const authorization = basic(u.username, u.password);
  u.username = ''; u.password = '';
  return { url: u.href, authorization };
}

/** An absolute http:// or https:// URL. */
export function isAbsoluteUrl(s: unknown): boolean {
  if (typeof s !== 'string') return false;
  try { const u = new URL(s); return u.protocol === 'http:' || u.protocol === 'https:'; } catch { return false; }
}
