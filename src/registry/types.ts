/**
 * What a registry is to the rest of cpmx, whatever stores it: the core's `TokenRegistry`
 * (credits and consume) with what a server also needs (refunds, health, close), and the
 * management interface that `cpmx tokens` (and the control panel) use.
 */
import type { Consumption, TokenRegistry } from '../core/credits.js';

/**
 * What one request asks of the registry. Several are taken in one transaction (a batch).
 * `refund` and `settle` name a credit in flight (InFlight): the answer it paid for never
 * reached its client (the credit is given back), or did (the credit is kept for good).
 */
export const VISIT = { look: 0, spend: 1, refund: 2, settle: 3 } as const;
export type VisitKind = (typeof VISIT)[keyof typeof VISIT];

/** What the registry did for one visit: spent (or looked, or refunded), none left, or unknown. */
export const OUTCOME = { spent: 0, noneLeft: 1, unknown: 2, looked: 3, refunded: 4 } as const;
export type Outcome = (typeof OUTCOME)[keyof typeof OUTCOME];

export interface VisitResult {
  outcome: Outcome;
  /** Credits left to the token's account after this visit (absent for an unknown token). */
  left?: number | undefined;
  /** Where a credit spent is journaled until its answer is written (set on `spent`). */
  inFlight?: InFlight | undefined;
}

/**
 * A credit spent whose answer is not yet known to be written: the journal's row (owner, batch,
 * index) holds it, in the same transaction as the debit. Written, the row is deleted (settle);
 * not written, or its batch in doubt, or its process dead, the credit is given back (release).
 * So a crash never keeps a credit for an answer its client did not get; it may give away the
 * answers that were written but not yet settled.
 */
export interface InFlight {
  /** The batch that spent it (numbered per process, with the process's owner id). */
  batch: number;
  /** The visit's place in its batch. */
  idx: number;
}

export function consumption(result: VisitResult): Consumption {
  return result.outcome === OUTCOME.spent ? 'spent' : result.outcome === OUTCOME.noneLeft ? 'none-left' : 'unknown';
}

/** The registry as /health reports it. */
export interface RegistryHealth {
  store: 'sqlite' | 'postgres';
  /** The file, or the database URL without its password. */
  location: string;
  /** `unavailable`: paying requests answer 503 until it is back (the server retries by itself). */
  state: 'ok' | 'unavailable';
  /** Why it is unavailable, in words. */
  problem: string | null;
  /** ISO 8601: since when it is in this state. */
  since: string;
  /** Registry visits (requests, refunds) waiting or under way in this process now. */
  waiting: number;
}

/** A registry a server answers by: asynchronous, batched, with refunds for answers never written. */
export interface ServedRegistry extends TokenRegistry {
  credits(token: string): Promise<number | undefined>;
  consume(token: string): Promise<Consumption>;
  /** Gives back a credit spent for an answer that was not written (the client was gone). */
  refund(token: string): void;
  /** A credit spent for an answer now written whole to its socket: kept for good. */
  delivered(token: string): void;
  health(): RegistryHealth;
  /** Finishes what is under way (batches, refunds), then closes. */
  close(): Promise<void>;
}

/** A project as `cpmx tokens list` shows it. Credits belong to the account; a project spends them. */
export interface Project {
  token: string;
  name: string;
  project: number;
  account: number;
  /** Credits left to the account. */
  credits: number;
  /** Credits this project has spent, with every token it had. */
  used: number;
  revoked: boolean;
  /** ISO 8601 creation time. */
  created: string;
}

export interface UsageDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** Requests the registry answered for the project (data, 304, HEAD, errors, 108). */
  requests: number;
  credits: number;
}

export interface ErrorSeen {
  /** ISO 8601 of the latest in its group. */
  at: string;
  code: 107 | 108;
  /** How many requests got it at that moment (one batch). */
  count: number;
  token: string;
}

export interface Usage {
  token: string;
  name: string;
  project: number;
  account: number;
  credits: number;
  /** One entry per day, oldest first, the last being today (UTC); days without use are zeros. */
  days: UsageDay[];
  /** The latest 107 and 108 answers of the project, newest first. */
  errors: ErrorSeen[];
}

export interface NewProject {
  name: string;
  /** Credits of the new account made for it; ignored when `account` is given. */
  credits?: number | undefined;
  /** An existing account for it to belong to (its credits are shared). */
  account?: number | undefined;
}

/** Managing a registry: what `cpmx tokens` does, on either store. */
export interface RegistryAdmin {
  readonly location: string;
  createProject(project: NewProject): Promise<Project>;
  list(): Promise<Project[]>;
  get(token: string): Promise<Project | undefined>;
  /** Adds credits to the token's account; false when the registry has no such token. */
  credit(token: string, credits: number): Promise<boolean>;
  /** Revokes a token for good; false when there is no such live token. */
  revoke(token: string): Promise<boolean>;
  /** Gives the token's project a new token; the old one stops working at once. */
  regenerate(token: string): Promise<string | undefined>;
  setDisabled(account: number, disabled: boolean): Promise<boolean>;
  usage(token: string, days: number): Promise<Usage | undefined>;
  close(): Promise<void>;
}

/** New projects get 50 credits, as the service's free registration does. */
export const DEFAULT_CREDITS = 50;

/**
 * The most credits an account may hold: 2^53 - 1, so every count read back is exact (a
 * JavaScript number, SQLite's and PostgreSQL's integers alike). Adding past it is refused.
 */
export const MAX_CREDITS = Number.MAX_SAFE_INTEGER;

/** Why credits cannot be added: the account would hold more than MAX_CREDITS. */
export function tooManyCredits(location: string, held: number, added: number): string {
  return `${location}: the account holds ${held} credits; adding ${added} would pass the most an account may hold, ${MAX_CREDITS}`;
}

/** How many 107/108 records a project keeps. */
export const ERRORS_KEPT = 100;

/** The days of a window ending today (UTC), oldest first. */
export function windowDays(days: number, today = new Date()): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** A project's usage over `window`, from its per-day sums (days without use become zeros) and its latest errors. */
export function usageOf(token: string, found: Project, window: string[], rows: UsageDay[], errors: ErrorSeen[]): Usage {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return {
    token,
    name: found.name,
    project: found.project,
    account: found.account,
    credits: found.credits,
    days: window.map((day) => ({ day, requests: byDay.get(day)?.requests ?? 0, credits: byDay.get(day)?.credits ?? 0 })),
    errors,
  };
}
