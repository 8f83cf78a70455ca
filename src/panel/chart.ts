/**
 * The usage chart: requests per day as SVG bars, drawn here (no chart library, no script), with
 * a title and a description for screen readers and the same numbers as a table beside it.
 * Colours come from the stylesheet (classes), so the Content-Security-Policy needs no inline
 * style.
 */
import type { UsageDay } from '../registry/types.js';
import { html, type Html } from './html.js';
import { formatNumber as number } from './layout.js';

// Narrow enough that, scaled down to a phone's width (about 343 px of 375), its 14-unit text
// is still 12 px tall; wide screens draw the text smaller (the stylesheet) and cap the width.
const WIDTH = 400;
const HEIGHT = 190;
const LEFT = 48;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 28;

/** The smallest 1, 2 or 5 × 10^k at or above `value` (at least 1): the top of the scale. */
export function scaleTop(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** 2026-05-20 → 20/05 */
const short = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

export function usageChart(days: readonly UsageDay[], id: string): Html {
  const top = scaleTop(Math.max(0, ...days.map((d) => d.requests)));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, days.length);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const busiest = days.reduce<UsageDay | undefined>((best, d) => (d.requests > (best?.requests ?? 0) ? d : best), undefined);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const description = `Del ${first} al ${last}: ${plural(total, 'petición', 'peticiones')} en total${busiest ? `; el día con más fue ${busiest.day}, con ${plural(busiest.requests, 'petición', 'peticiones')}` : ''}.`;
  const grid = [0, top / 2, top].map(
    (value) => html`<line class="rejilla" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}"/><text class="eje" x="${LEFT - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${number(value)}</text>`,
  );
  const bars = days.map((d, i) => {
    if (d.requests === 0) return '';
    const x = LEFT + i * slot + slot * 0.15;
    return html`<rect class="barra" x="${x.toFixed(1)}" y="${y(d.requests).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${(TOP + plotHeight - y(d.requests)).toFixed(1)}"><title>${d.day}: ${plural(d.requests, 'petición', 'peticiones')}, ${plural(d.credits, 'crédito', 'créditos')}</title></rect>`;
  });
  const labels = [0, Math.floor((days.length - 1) / 2), days.length - 1]
    .filter((i, at, all) => days[i] && all.indexOf(i) === at)
    // The last label ends at the last bar and the first starts at the first: neither is cut at the edge.
    .map((i) => {
      const anchor = i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle';
      const x = anchor === 'start' ? LEFT + i * slot : anchor === 'end' ? LEFT + (i + 1) * slot : LEFT + i * slot + slot / 2;
      return html`<text class="eje" x="${x.toFixed(1)}" y="${HEIGHT - 8}" text-anchor="${anchor}">${short(days[i]!.day)}</text>`;
    });
  return html`<figure class="grafica">
<svg role="img" aria-labelledby="${id}-titulo ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" focusable="false">
<title id="${id}-titulo">Peticiones por día, últimos ${days.length} días</title>
<desc id="${id}-desc">${description}</desc>
${grid}${bars}${labels}
</svg>
<figcaption>${description}</figcaption>
</figure>
<details class="datos">
<summary>Ver los datos de la gráfica</summary>
<table>
<caption class="visualmente-oculto">Peticiones y créditos por día (UTC)</caption>
<thead><tr><th scope="col">Día (UTC)</th><th scope="col">Peticiones</th><th scope="col">Créditos gastados</th></tr></thead>
<tbody>${[...days].reverse().map((d) => html`<tr><th scope="row">${d.day}</th><td>${number(d.requests)}</td><td>${number(d.credits)}</td></tr>`)}</tbody>
</table>
</details>`;
}
