/**
 * What is known about a target when it is missed: what was measured, why, what was tried.
 * Keyed by the start of the target's name; RESULTS.md adds the note under the targets table.
 */
const MISS_NOTES: [prefix: string, note: string][] = [
  [
    'validate: records/s',
    'Parsing, batching and writing without validating take about as long as csv-parse alone; validating adds about 1.8 µs a record. ' +
      'The generated file draws its codes uniformly from all 32,166, so almost every record reads a code entry and names that are not in the CPU cache: ' +
      'on the same records sorted by code, validation is a third faster, and real customer files cluster far more than uniform draws. ' +
      'Profiling drove it from 127k to about 300k records/s (csv-parse now reads the original bytes, records are validated in batches, values are compared as written before folding, ' +
      'Latin-1 folds through a table, one object per code with its names joined in one string); what remains is csv-parse itself, hashing fresh strings and those cache misses. ' +
      'Since issue 33 (which field is wrong, codes from names) a run also builds the settlement index once (its keys for 78,853 names, handed to the workers) and reads the names of each invalid record; ' +
      'the index is compact and shared, the names read once per text, but that work and the garbage it makes are what separate this run from the 102% before it ' +
      '(measured: with those two steps made to return at once, --jobs 2 took 1.40 s instead of 1.74 s, still slower than csv-parse alone). ' +
      'A second thread also gains less than it should: with both judging, each thread takes longer per record than either alone (the process spends 3.2 s of CPU against 2.5 s on one thread).',
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
