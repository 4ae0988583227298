// The latency picture of a certify-receiver report: every measured answer time
// per kind of delivery on a log axis, with p50/p95/p99/max marked and the 5 s
// limit and 1 s advice drawn as lines. Inline SVG, drawn from results.json
// alone (the samples travel in receiver.latency's samples evidence).
import type { RunResults, SamplesEvidence } from '../../results/model.ts';
import { percentile } from '../stats.ts';
import { esc } from './escape.ts';

const W = 760, LEFT = 150, RIGHT = 20, ROW = 40, TOP = 44, AXIS = 30;
const COLORS: Record<string, string> = { normal: '#2f6fb3', batch: '#7a4fb3', older: '#3d8c6e', burst: '#b36b2f' };

interface Row { kind: string; ms: number[] }

function samples(r: RunResults): SamplesEvidence[] {
  const c = r.checks.find(x => x.id.startsWith('receiver.latency.') && x.evidence.some(e => e.kind === 'samples'));
  return c?.evidence.filter((e): e is SamplesEvidence => e.kind === 'samples') ?? [];
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${+ms.toFixed(2)} ms`;
}

export function latencyFigure(r: RunResults): string {
  const m = samples(r);
  const rows: Row[] = m.map(e => ({ kind: e.series, ms: e.values.filter(Number.isFinite).sort((a, b) => a - b) })).filter(x => x.ms.length);
  if (!rows.length) return '';
  const { limit = NaN, advice = NaN } = m[0].marks ?? {};
  const all = rows.flatMap(x => x.ms);
  const lo = Math.pow(10, Math.floor(Math.log10(Math.max(0.01, Math.min(...all)))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...all, Number.isFinite(limit) ? limit * 1.2 : 0))));
  const x = (ms: number) => LEFT + (Math.log10(Math.max(ms, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) * (W - LEFT - RIGHT);
  const H = TOP + rows.length * ROW + AXIS;
  const parts: string[] = [];

  for (let p = lo; p <= hi * 1.0001; p *= 10) {
    parts.push(`<line x1="${x(p)}" x2="${x(p)}" y1="${TOP - 6}" y2="${H - AXIS}" stroke="#e1e4e8"/>`,
      `<text x="${x(p)}" y="${H - AXIS + 16}" text-anchor="middle" font-size="11" fill="#556">${esc(fmt(p))}</text>`);
  }
  // Labels end at their line, on two heights, so the two lines' labels never overlap.
  const vline = (ms: number, color: string, label: string, dy: number) => Number.isFinite(ms) && ms > 0
    ? `<line x1="${x(ms)}" x2="${x(ms)}" y1="${TOP + dy - 4}" y2="${H - AXIS}" stroke="${color}" stroke-width="1.5" stroke-dasharray="5 3"/>`
      + `<text x="${x(ms) - 4}" y="${TOP + dy}" text-anchor="end" font-size="11" fill="${color}">${esc(label)}</text>` : '';
  const scaled = (spec: string, ms: number) => r.timeScale === 1 ? spec : `${spec} = ${fmt(ms)} at time scale ${r.timeScale}`;
  parts.push(vline(limit, '#b3261e', `limit ${scaled('5 s', limit)}`, -24), vline(advice, '#c77700', `p99 advice ${scaled('1 s', advice)}`, -8));

  rows.forEach((row, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const color = COLORS[row.kind] ?? '#445';
    const q = { p50: percentile(row.ms, 50), p95: percentile(row.ms, 95), p99: percentile(row.ms, 99), max: row.ms[row.ms.length - 1] };
    parts.push(`<text x="8" y="${y - 3}" font-size="12" font-weight="600" fill="${color}">${esc(row.kind)}</text>`,
      `<text x="8" y="${y + 12}" font-size="10.5" fill="#556">n=${row.ms.length} · p50 ${esc(fmt(q.p50))}</text>`,
      `<rect x="${x(q.p50)}" y="${y - 9}" width="${Math.max(1, x(q.p99) - x(q.p50))}" height="18" fill="${color}" opacity="0.12"/>`);
    // Deterministic vertical spread so equal times do not hide each other.
    row.ms.forEach((ms, j) => parts.push(
      `<circle cx="${x(ms).toFixed(1)}" cy="${(y - 7 + ((j * 37) % 15)).toFixed(1)}" r="2.2" fill="${color}" opacity="0.55"/>`));
    // Marks without labels (they would collide when percentiles are close); the table below gives the figures.
    for (const [name, v] of Object.entries(q))
      parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${y - (name === 'max' ? 8 : 12)}" y2="${y + (name === 'max' ? 8 : 12)}" ` +
        `stroke="#1d2433" stroke-width="${name === 'max' ? 1 : 1.8}"><title>${esc(row.kind)} ${name} ${esc(fmt(v))}</title></line>`);
  });

  const table = rows.map(row => {
    const q = [50, 95, 99].map(p => fmt(percentile(row.ms, p)));
    return `<tr><td>${esc(row.kind)}</td><td>${row.ms.length}</td><td>${q.map(esc).join('</td><td>')}</td><td>${esc(fmt(row.ms[row.ms.length - 1]))}</td></tr>`;
  }).join('');
  return `<h2 id="latency">Receiver answer times</h2>
<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" class="latency-chart">
<title>Answer time of every delivery per kind, log scale, with the 5 s limit and the 1 s p99 advice</title>
${parts.join('\n')}
<text x="${LEFT}" y="${H - 2}" font-size="11" fill="#556">` +
    `log scale; a dot per answered delivery; marks at p50, p95, p99, max; burst: checkouts in parallel</text>
</svg>
<table class="latency"><tr><th>kind</th><th>n</th><th>p50</th><th>p95</th><th>p99</th><th>max</th></tr>${table}</table>`;
}
