/**
 * The headline comparison as an SVG, drawn here with no browser: one panel per measure, one
 * bar per contestant on a log scale (the contestants differ by orders of magnitude), each
 * labelled with its median and its ratio to cpmx.
 */
import { format, ratio } from './report/format.js';

export interface Panel {
  title: string;
  unit: string;
  /** Contestant label → median; missing contestants are left out. */
  values: { label: string; value: number; cpmx?: boolean }[];
}

const COLORS = ['#1b7f5f', '#c2562b', '#5b6bb5', '#8a8a8a'];

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function renderChart(title: string, subtitle: string, panels: Panel[]): string {
  const width = 900;
  const labelWidth = 290;
  const barArea = width - labelWidth - 190;
  const barHeight = 18;
  const gap = 6;
  let y = 64;
  const parts: string[] = [];
  for (const panel of panels) {
    const values = panel.values.filter((v) => v.value > 0);
    const max = Math.max(...values.map((v) => v.value));
    const min = Math.min(...values.map((v) => v.value));
    const lo = Math.log10(min) - 0.3;
    const hi = Math.log10(max);
    const scale = (v: number) => 8 + ((Math.log10(v) - lo) / Math.max(hi - lo, 1e-9)) * (barArea - 8);
    const cpmx = values.find((v) => v.cpmx)?.value;
    parts.push(`<text x="16" y="${y}" class="panel">${escapeXml(panel.title)}</text>`);
    y += 10;
    values.forEach((v, i) => {
      const w = scale(v.value);
      const versus = cpmx && !v.cpmx ? ` (${ratio(v.value, cpmx)} cpmx)` : '';
      parts.push(
        `<text x="${labelWidth - 8}" y="${y + barHeight - 5}" class="label" text-anchor="end">${escapeXml(v.label)}</text>`,
        `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${COLORS[i % COLORS.length]}" rx="2"/>`,
        `<text x="${labelWidth + w + 6}" y="${y + barHeight - 5}" class="value">${escapeXml(format(v.value, panel.unit) + versus)}</text>`,
      );
      y += barHeight + gap;
    });
    y += 22;
  }
  const height = y;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">
<style>.title{font-size:18px;font-weight:bold;fill:#222}.sub{font-size:12px;fill:#555}.panel{font-size:14px;font-weight:bold;fill:#222}.label{font-size:12px;fill:#333}.value{font-size:12px;fill:#222}</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="16" y="26" class="title">${escapeXml(title)}</text>
<text x="16" y="45" class="sub">${escapeXml(subtitle)}</text>
${parts.join('\n')}
</svg>
`;
}
