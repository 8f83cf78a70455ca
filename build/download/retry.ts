/**
 * A bounded retry with exponential backoff, for failures that another attempt may cure (network
 * errors, cut connections, 5xx answers: DownloadError.transient). Anything else, or the last
 * attempt's failure, is thrown as it is; the wait between attempts ends early on abort.
 */
import { DownloadError } from './errors.js';

export interface RetryInfo {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long before the next attempt starts. */
  delayMs: number;
  error: DownloadError;
}

export interface RetryPolicy {
  /** Attempts after the first; 0 for none. */
  retries: number;
  /** The wait after the first failure; doubled after each further one. */
  delayMs: number;
  signal: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
}

/** Runs `attempt` until it succeeds or may not be retried; failures carry the count of attempts. */
export async function withRetry<T>(attempt: (number: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let number = 1; ; number++) {
    try {
      return await attempt(number);
    } catch (error) {
      if (error instanceof DownloadError) error.attempts = number;
      const retry = error instanceof DownloadError && error.transient && number <= policy.retries && !policy.signal.aborted;
      if (!retry) throw error;
      const delayMs = policy.delayMs * 2 ** (number - 1);
      policy.onRetry?.({ attempt: number, delayMs, error });
      await pause(delayMs, policy.signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
