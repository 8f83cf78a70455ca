/**
 * What is known about a target when it is missed: what was measured, why, what was tried.
 * Keyed by the start of the target's name; RESULTS.md adds the note under the targets table.
 */
const MISS_NOTES: [prefix: string, note: string][] = [
  [
    'validate: records/s',
    'Reading the file, cutting it into ranges and writing the results are not what is slow: with judging made to return at once, a run took about a quarter of csv-parse\'s own time on the same file ' +
      '(0.2 to 0.45 in six interleaved runs, 2026-11-28; csv-parse reads only the header and quoted records, cpmx cuts unquoted lines itself). ' +
      'Judging is, and what it costs depends on how a record is written. The 63% of the generated records written exactly as the catalog writes them were validated with --jobs 1 at 1.1 to 1.4 times csv-parse\'s rate on them (three interleaved runs, same day). ' +
      'The rest cost more, each as much as its names need reading (per kind, one thread, codes already met): a settlement upper-cased or a state without its accents about 2.5 times a right record, a settlement with its type in front (`Col. ...`) about 10 times, ' +
      'and a misspelt settlement or a code that is another place\'s 45 to 65 times, for the code\'s settlements are keyed and the settlement index searched to say which field is wrong (issue 33): those 2% of the records take about a third of judging. ' +
      'The file draws its codes uniformly from all 32,166, so almost every record reads a code entry and names that are not in the CPU cache; real customer files cluster far more. ' +
      'A second thread gains less than it should on 2 cores: two threads judging at once each take 1.2 to 1.6 times as long a record as one alone, the same whether in one process or two, and whether the file is split by code or at random (docs/validate.md).',
  ],
  [
    'HTTP: info_cp throughput',
    'Per request cpmx serve runs fewer instructions than the bare server (callgrind, after a warm-up: 61,500 against 63,300 to 65,600; a kept answer is one Map lookup by URL, then Node writes its body as one string with the header block). ' +
      'perf puts cpmx\'s own JavaScript and that lookup at 3.3% of serve\'s time; the rest is Node, V8 and the kernel, as for the bare server. ' +
      'Each request sends a different answer, found among 4,096, where the constant server sends the same bytes from cache; the bare server answering cpmx\'s own bytes, a Map lookup and nothing else, is weighed beside it to show what that costs by itself. ' +
      'Single rounds range widely on this shared machine, and so do medians: see the calibration pair (two identical bare servers weighed the same way) and the median\'s confidence interval. A process is faster or slower than an identical one for its whole life, so each pair is started anew every two rounds; with one pair of processes per pair, four runs on 2026-11-25 gave serve 90.6% to 100.8%, and with six, serve 99.0% and 95.2% (12:05 and 12:28 UTC; calibration 99.4% and 99.8%; the bare server answering cpmx\'s bytes 98.5% and 96.9%).',
  ],
  [
    'HTTP: createMiddleware()',
    'Measured like cpmx serve, against a bare server of its own run right beside it; single rounds range widely on a shared machine (95.8% in the quiet run of 2026-11-25, 05:00, 92.6% at 08:14, 96.2% at 10:10, 95.3% at 10:30, each from one pair of processes; 95.9% and 98.9% at 12:05 and 12:28 from six), and so do medians: see the calibration pair. Per request it does what cpmx serve does (the kept answer, written as it is), without the connection guard; weighed directly against serve (12 rounds back to back, 2026-11-25), serve measured 99.7% of it.',
  ],
  [
    'cold load with the artifact given as bytes',
    'Both paths open the artifact with the same code. Since format 6 the path read by cpmx reads only the pages a first answer touches, while an app that hands over bytes has read the whole file first (readFileSync of 2.3 MB, timed here as the app\'s); cpmx\'s own part is the same or less. A miss here is that read unless it grows beyond it.',
  ],
  [
    'cold load',
    'The cold start table gives it in its steps. Importing is Node resolving the package by its name (an ES import of a bare name cost about 1 ms more than of a path on these machines; a require of better-sqlite3 resolves the CommonJS way) and parsing the first lookup\'s file (the rest of the library is a file loaded at the first other call); opening reads and checks the artifact\'s head; the first answer reads and checks the pages it touches. ' +
      'What is left is mostly V8 compiling cpmx\'s code the first time it runs; better-sqlite3\'s work is in its native add-on (docs/performance.md, "Where a cold start still goes").',
  ],
];

export function missNote(targetName: string): string {
  return MISS_NOTES.find(([prefix]) => targetName.startsWith(prefix))?.[1] ?? 'See the section below.';
}
