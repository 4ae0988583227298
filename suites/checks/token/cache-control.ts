// Reads Cache-Control as directives (RFC 9111 5.2), not as a string: real
// token servers send `no-store` among others (Keycloak: `no-store` plus
// `Pragma: no-cache`; Spring: `no-store, no-cache, max-age=0`), in any letter
// case, possibly in several header lines (joined with ", " by the HTTP layer).

/**
 * The directive names of a Cache-Control value, lower-cased. Commas inside a
 * quoted argument (`no-cache="set-cookie, x-foo"`) do not split directives.
 */
export function cacheDirectives(value: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!value) return out;
  let part = '';
  let quoted = false;
  const take = () => {
    const name = part.split('=')[0]!.trim().toLowerCase();
    if (name) out.add(name);
    part = '';
  };
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (quoted && ch === '\\') { part += ch + (value[++i] ?? ''); continue; }
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) take();
    else part += ch;
  }
  take();
  return out;
}

/** RFC 6749 5.1: "Cache-Control header field with a value of no-store"; other directives may stand beside it. */
export const forbidsStore = (value: string | undefined) => cacheDirectives(value).has('no-store');
