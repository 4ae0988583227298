// The delivery timeline of a webhook run: one row per checkout, each
// attempt a bar from its arrival to its answer (or the sender's hang-up),
// coloured by the answer it got, the 5 s response window of spec 6.6 outlined
// behind it, the 10 s minimum of spec 6.5 shaded after each failed attempt, the
// measured delay written on each retry gap, and a red mark where a failed check
// points at an attempt. Inline SVG, drawn from results.json alone (attempt times
// are real ms; the axis is in spec seconds: real / timeScale).
import type { DeliveryAttempt, RunResults } from '../../results/model.ts';
import { esc } from './escape.ts';
import { isTimeScale, specClock } from '../../clock.ts';

const LEFT = 190, RIGHT = 24, TOP = 58, ROW = 30, AXIS = 34, PLOT = 1040;
const WINDOW_S = 5, MIN_DELAY_S = 10;

const LEGEND: Array<[string, string]> = [
  ['#1f7a3d', '200'], ['#d9822b', 'other status'], ['#7a4fb3', 'reset by the sink'], ['#8a8f98', 'sender hung up first'], ['#2f6fb3', 'open at the end'],
];

function colour(a: DeliveryAttempt): string {
  if (a.answer === 200) return LEGEND[0][0];
  if (a.answer === 'reset') return LEGEND[2][0];
  if (a.answer === 'none') return a.closedMs !== undefined ? LEGEND[3][0] : LEGEND[4][0];
  return LEGEND[1][0];
}

/**
 * Spec seconds from the real ms of the record; NaN when the results carry no
 * usable time scale (report DIR refuses such a file, but the page renders
 * whatever it is given without throwing).
 */
const specS = (r: RunResults, ms: number) => (isTimeScale(r.timeScale) ? specClock(r.timeScale).toSpec(ms) / 1000 : NaN);

/**
 * The attempts each failed check says broke its rule, by seq: the evidence's
 * `violating` list (the early retry, not the attempt before it); every attempt
 * of the evidence only for results written before that list existed.
 */
function violations(r: RunResults): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const c of r.checks) {
    if (c.status !== 'failed') continue;
    for (const e of c.evidence) {
      if (e.kind !== 'delivery') continue;
      const seqs = Array.isArray(e.violating) ? e.violating : e.attempts.map(a => a.seq);
      for (const s of seqs) out.set(s, [...(out.get(s) ?? []), c.id]);
    }
  }
  return out;
}

/** The row's name: the probe plan of the checkout (what the suite did to it), else its id cut short. */
function rowName(id: string, mine: readonly DeliveryAttempt[]): { name: string; sub: string } {
  const plan = mine.find(a => a.plan)?.plan;
  const short = id.length > 13 ? `${id.slice(0, 12)}…` : id;
  return plan ? { name: plan, sub: short } : { name: short, sub: '' };
}

/** Arbitrary: the narrowest an attempt is drawn, so an answer in 5 ms is a visible mark, not a hairline. */
const MIN_ATTEMPT_PX = 7;

/** A round step for the axis ticks (1, 2, 5 x 10^n spec seconds), about ten ticks. */
function step(span: number): number {
  const raw = span / 10, p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map(m => m * p).find(s => s >= raw) ?? raw;
}

export function timelineFigure(r: RunResults): string {
  const all = r.deliveries ?? [];
  if (!all.length) return '';
  const t0 = Math.min(...all.map(a => a.arrivedMs));
  const endOf = (a: DeliveryAttempt) => a.answer === 'none' && a.closedMs !== undefined ? a.closedMs :
    a.answeredMs ?? a.closedMs ?? a.arrivedMs + specClock(r.timeScale).toReal(WINDOW_S * 1000);
  const span = Math.max(WINDOW_S * 2, ...all.map(a => Math.max(specS(r, endOf(a) - t0), specS(r, a.arrivedMs - t0) + WINDOW_S)));
  const x = (ms: number) => LEFT + specS(r, ms - t0) / span * PLOT;
  const width = (s: number) => s / span * PLOT;
  const rows = [...new Set(all.map(a => a.checkoutId))];
  const H = TOP + rows.length * ROW + AXIS;
  const W = LEFT + PLOT + RIGHT;
  const bad = violations(r);
  const parts: string[] = [];

  const tick = step(span);
  for (let s = 0; s <= span + 1e-9; s += tick) {
    const px = LEFT + width(s);
    parts.push(`<line x1="${px}" x2="${px}" y1="${TOP - 4}" y2="${H - AXIS}" stroke="#eceef1"/>`,
      `<text x="${px}" y="${H - AXIS + 16}" text-anchor="middle" font-size="11" fill="#556">${+s.toFixed(2)} s</text>`);
  }
  rows.forEach((id, i) => {
    const y = TOP + i * ROW, mid = y + ROW / 2;
    const mine = all.filter(a => a.checkoutId === id).sort((a, b) => a.arrivedMs - b.arrivedMs);
    const probes = [...new Set(mine.map(a => a.probe).filter(p => p !== 'ok'))].join(', ');
    const { name, sub } = rowName(id, mine);
    parts.push(`<g class="checkout" data-checkout="${esc(id)}">`,
      `<rect x="0" y="${y}" width="${W}" height="${ROW}" fill="${i % 2 ? '#fafbfc' : '#fff'}"/>`,
      `<text class="row-name" x="8" y="${mid - 2}" font-size="12" font-weight="600" fill="#1d2433"><title>${esc(id)}</title>${esc(name)}</text>`,
      `<text x="8" y="${mid + 11}" font-size="10" fill="#778">${esc([sub, probes || 'answered 200'].filter(Boolean).join(' · '))}</text>`);
    // Behind the bars: the 10 s no-retry zone after each failed attempt, and each 5 s window.
    for (const a of mine) {
      if (a.answer === 200) continue;
      parts.push(`<rect class="min-delay" x="${x(endOf(a))}" y="${mid - 9}" width="${width(MIN_DELAY_S)}" height="18" fill="#f4d6d3" opacity="0.55">` +
        '<title>10 s minimum retry delay (spec 6.5)</title></rect>');
    }
    for (const a of mine) parts.push(`<rect class="window" x="${x(a.arrivedMs)}" y="${mid - 7}" width="${width(WINDOW_S)}" height="14" fill="none" ` +
      'stroke="#b9c2cf" stroke-dasharray="3 2"><title>5 s response window (spec 6.6)</title></rect>');
    // Retry gaps of the same event, with the measured delay written on them.
    for (let k = 1; k < mine.length; k++) {
      const b = mine[k];
      const prev = [...mine.slice(0, k)].reverse().find(p => p.event === b.event && p.bodyStatus === b.bodyStatus);
      if (!prev || prev.answer === 200) continue;
      const x1 = x(endOf(prev)), x2 = x(b.arrivedMs), d = specS(r, b.arrivedMs - endOf(prev));
      parts.push(`<line x1="${x1}" x2="${x2}" y1="${mid - 11}" y2="${mid - 11}" stroke="#445" stroke-width="0.8"/>`,
        `<text class="delay" x="${(x1 + x2) / 2}" y="${mid - 13}" text-anchor="middle" font-size="9.5" fill="#334">${d.toFixed(1)} s</text>`);
    }
    for (const a of mine) {
      const x1 = x(a.arrivedMs), w = Math.max(MIN_ATTEMPT_PX, x(endOf(a)) - x1);
      const tip = `#${a.seq} ${a.bodyStatus ?? '(no status)'} event ${a.event ?? '?'} attempt ${a.attempt ?? '?'}: probe ${a.probe}, answer ${a.answer}, ` +
        `at ${specS(r, a.arrivedMs - t0).toFixed(2)} s, lasted ${specS(r, endOf(a) - a.arrivedMs).toFixed(2)} s`;
      parts.push(`<rect class="attempt" data-seq="${esc(a.seq)}" data-answer="${esc(a.answer)}" x="${x1}" y="${mid - 5}" width="${w}" height="10" rx="2" ` +
        `fill="${colour(a)}"><title>${esc(tip)}</title></rect>`);
      const v = bad.get(a.seq);
      if (v) parts.push(`<g class="violation" data-seq="${esc(a.seq)}"><circle cx="${x1}" cy="${mid}" r="8" fill="none" stroke="#b3261e" stroke-width="2"/>` +
        `<text x="${x1 + 9}" y="${mid + 12}" font-size="11" font-weight="bold" fill="#b3261e">!</text>` +
        `<title>${esc(`#${a.seq} shown by failed ${v.join(', ')}`)}</title></g>`);
    }
    parts.push('</g>');
  });
  const legend = LEGEND.map(([c, label], i) => `<rect x="${LEFT + i * 150}" y="30" width="12" height="10" rx="2" fill="${c}"/>` +
      `<text x="${LEFT + i * 150 + 17}" y="39" font-size="11" fill="#334">${esc(label)}</text>`).join('')
    + `<rect x="${LEFT + 750}" y="29" width="24" height="12" fill="none" stroke="#b9c2cf" stroke-dasharray="3 2"/>`
    + `<text x="${LEFT + 780}" y="39" font-size="11" fill="#334">5 s window</text>`
    + `<rect x="${LEFT + 860}" y="29" width="24" height="12" fill="#f4d6d3"/><text x="${LEFT + 890}" y="39" font-size="11" fill="#334">10 s minimum</text>`;
  return `<h2>Webhook deliveries</h2>
<svg class="timeline" data-attempts="${all.length}" data-checkouts="${rows.length}" role="img" ` +
    `aria-label="Timeline of ${all.length} webhook delivery attempts of ${rows.length} checkouts" xmlns="http://www.w3.org/2000/svg" ` +
    `width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui,sans-serif">
<text x="8" y="18" font-size="12" fill="#334">${all.length} attempts of ${rows.length} checkouts; ` +
    `time in spec seconds from the first attempt (time scale ${esc(r.timeScale)}); red rings mark the attempts that broke a rule</text>
${legend}
${parts.join('\n')}
</svg>`;
}
