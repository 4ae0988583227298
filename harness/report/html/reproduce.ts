// The box at the top of index.html that makes the report's curl lines work:
// they carry secrets as $PIS_... placeholders, so it shows, once, how to set
// them: the token request (with $PIS_CLIENT_SECRET) that yields
// $PIS_ACCESS_TOKEN and $PIS_REFRESH_TOKEN, and the webhook api-key.
import type { HttpEvidence, RunResults } from '../../results/model.ts';
import { esc } from './escape.ts';

/** Reads a JSON field from standard input with Node (which a user of this tool has). */
const field = (name: string) => `node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).${name}'`;

function exchanges(r: RunResults): HttpEvidence[] {
  return r.checks.flatMap(c => (Array.isArray(c.evidence) ? c.evidence : [])).filter((e): e is HttpEvidence => e.kind === 'http' && typeof e.curl === 'string');
}

/** The token request of the run as a curl line: the one the run made, else one built from the target. */
function tokenCurl(r: RunResults, all: readonly HttpEvidence[]): string | undefined {
  const made = all.find(e => /grant_type=client_credentials/.test(e.curl!) && e.curl!.includes('$PIS_CLIENT_SECRET'));
  if (made) return made.curl;
  const { authUrl, realm, clientId } = r.target;
  if (!authUrl || !clientId) return undefined;
  const url = `${authUrl}/auth/realms/${realm ?? 'pis'}/protocol/openid-connect/token`;
  return `curl -sS -X POST '${url}' -H 'content-type: application/x-www-form-urlencoded' ` +
    `--data-raw "grant_type=client_credentials&client_id=${clientId}&client_secret=$PIS_CLIENT_SECRET"`;
}

export function reproduceBox(r: RunResults): string {
  const all = exchanges(r);
  const uses = (name: string) => all.some(e => e.curl!.includes(`$${name}`));
  const lines: string[] = [];
  if (uses('PIS_CLIENT_SECRET') || uses('PIS_ACCESS_TOKEN') || uses('PIS_REFRESH_TOKEN'))
    lines.push("export PIS_CLIENT_SECRET='…'   # your client secret: never written to this report");
  const token = tokenCurl(r, all);
  if (token && (uses('PIS_ACCESS_TOKEN') || uses('PIS_REFRESH_TOKEN'))) {
    lines.push(`TOKENS="$(${token})"`);
    lines.push(`export PIS_ACCESS_TOKEN="$(printf %s "$TOKENS" | ${field('access_token')})"`);
    if (uses('PIS_REFRESH_TOKEN')) lines.push(`export PIS_REFRESH_TOKEN="$(printf %s "$TOKENS" | ${field('refresh_token')})"`);
  }
  if (uses('PIS_WEBHOOK_API_KEY')) lines.push("export PIS_WEBHOOK_API_KEY='…'   # the api-key registered for the webhook");
  if (!lines.length) return '';
  return '<details class="reproduce" id="reproduce">' +
    `<summary>Repeat a request: the curl lines below use $PIS_… placeholders for secrets; set them first</summary>
<pre>${esc(lines.join('\n'))}</pre></details>`;
}
