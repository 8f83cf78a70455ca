/** The report step: results.json in, the judged targets, RESULTS.md and chart.svg out. Pure. */
import type { Results } from '../results.js';
import { renderMarkdown } from './markdown.js';
import { renderResultsChart } from './panels.js';
import { judge, type Target } from './targets.js';

export interface Report {
  targets: Target[];
  markdown: string;
  svg: string;
}

export function renderReport(results: Results): Report {
  const targets = judge(results);
  return { targets, markdown: renderMarkdown(results, targets), svg: renderResultsChart(results) };
}
