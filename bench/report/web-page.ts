/**
 * RESULTS.md's section on cpmx/web's first answer of a cold page: where its time went, by
 * Chromium's resource timings, beside an empty page's (Chromium's own floor) and the library's.
 */
import type { BrowserUsed, WebResults } from '../results.js';

const ms = (value: number) => `${value.toFixed(1)} ms`;

export function webFirstAnswer(web: WebResults): string[] {
  const first = web.firstAnswer;
  if (!first?.phasesMs || !first.floorMs) return [];
  const p = first.phasesMs;
  const row = (moment: string, at: number, since: number, what: string) => `| ${moment} | ${ms(at)} | ${ms(at - since)} | ${what} |`;
  return [
    '## cpmx/web: a cold page’s first answer',
    '',
    `A new browser profile each run (nothing cached), the page served by a plain static server over loopback, ${first.webMs.runs} runs of each page, interleaved; ms from navigation start, medians. ` +
      'The page preloads the module and the manifest (the README’s hints) and asks for one code as soon as the module has run; it logs its time on the console once answered, ' +
      'and the driver only waits for that line (polling the page would run Playwright’s own script in it, in the middle of the measurement).',
    '',
    `Browser: ${browserName(first.browser)}, headless.`,
    '',
    '| page | first answer | minus the empty page |',
    '| --- | ---: | ---: |',
    `| empty: one module script, nothing fetched (Chromium’s floor) | ${ms(first.floorMs.median)} | |`,
    `| cpmx/web, one code | ${ms(first.webMs.median)} | ${ms(first.webMs.median - first.floorMs.median)} |`,
    `| the library, fetching the whole artifact | ${ms(first.libraryMs.median)} | ${ms(first.libraryMs.median - first.floorMs.median)} |`,
    '',
    'The cpmx/web page’s moments (medians of each, so the steps need not add up exactly):',
    '',
    '| moment | at | step | the step is |',
    '| --- | ---: | ---: | --- |',
    row('the HTML has arrived', p.html, 0, 'navigation: a renderer, the request, the response'),
    row('the module and the manifest have arrived', p.module, p.html, 'both preloaded, fetched together'),
    row('the client asks for the code’s files', p.asked, p.module, 'the module compiled and run, the call made'),
    row('the code’s files have arrived', p.files, p.asked, 'the digit’s index and the shard, together: one round'),
    row('the answer is made', p.answered, p.files, 'CRC-32 checks, JSON parsing, the router'),
    '',
    ...(first.otherBrowsers ?? []).flatMap((other) => [
      `The same pages in this machine’s own Chromium (${browserName(other.browser)}, headless), in the same run: cpmx/web ${ms(other.webMs.median)}, the empty page ${ms(other.floorMs.median)} ` +
        `(${ms(other.webMs.median - other.floorMs.median)} over it).`,
      '',
    ]),
  ];
}

export function browserName(browser: BrowserUsed | undefined): string {
  return browser ? `Chromium ${browser.version} (${browser.source})` : 'Chromium (not recorded)';
}
