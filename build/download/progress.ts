/**
 * A progress line for `onProgress`, for the CLI to draw on a terminal: a bar and a percentage
 * when the site announces the size, the bytes so far when it does not. Nothing is drawn where
 * the output is not a terminal (a pipe or a log file gets no carriage-return noise).
 */

const BAR_WIDTH = 24;

/** `[##########--------------]  42%  0.8 / 2.0 MB`, or `0.8 MB` when the total is unknown. */
export function formatProgress(bytesReceived: number, totalBytes: number | undefined): string {
  if (!totalBytes) return `${megabytes(bytesReceived)} MB`;
  const ratio = Math.min(1, bytesReceived / totalBytes);
  const filled = Math.round(ratio * BAR_WIDTH);
  const percent = String(Math.floor(ratio * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percent}%  ${megabytes(bytesReceived)} / ${megabytes(totalBytes)} MB`;
}

export interface TerminalProgress {
  onProgress(bytesReceived: number, totalBytes: number | undefined): void;
  /** Ends the line drawn, if any; call once the download settles, whichever way. */
  done(): void;
}

/** Draws `formatProgress` in place on `stream` when it is a terminal; redraws only when the text changes. */
export function terminalProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, label = 'Downloading'): TerminalProgress {
  let last = '';
  return {
    onProgress(bytesReceived, totalBytes) {
      if (!stream.isTTY) return;
      const line = `${label} ${formatProgress(bytesReceived, totalBytes)}`;
      if (line === last) return;
      last = line;
      stream.write(`\r${line}\x1b[K`);
    },
    done() {
      if (last) stream.write('\n');
      last = '';
    },
  };
}

function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}
