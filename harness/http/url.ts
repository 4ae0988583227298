// Credentials written into a target URL (https://user:pass@host/...): sent as
// Basic authorization, never shown. Only the userinfo is touched; the rest of
// the URL stays exactly as given.

// The authority runs to the first / ? or #; its userinfo ends at its last @ (as the WHATWG URL parser reads it).
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i;

/** The URL with any userinfo replaced by [redacted], for reports, logs and curl lines. */
export function redactUrlUserinfo(url: string): string {
  return url.replace(USERINFO, '$1[redacted]@');
}

/** The URL without its userinfo, and the Basic authorization header value the userinfo stands for. */
export function splitUserinfo(url: string): { url: string; authorization?: string } {
  const m = USERINFO.exec(url);
  if (!m) return { url };
  const [user = '', ...rest] = m[2]!.split(':');
  const decode = (s: string) => { try { return decodeURIComponent(s); } catch { return s; } };
  const pair = `${decode(user)}:${decode(rest.join(':'))}`;
  return { url: m[1] + url.slice(m[0].length), authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` };
}

/** An absolute http:// or https:// URL. */
export function isAbsoluteUrl(s: unknown): boolean {
  if (typeof s !== 'string') return false;
  try { const u = new URL(s); return u.protocol === 'http:' || u.protocol === 'https:'; } catch { return false; }
}
