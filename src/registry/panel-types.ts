/**
 * What the control panel (src/panel/) keeps in the registry, on either store: accounts with
 * an email and a password hash, sessions, login and sign-up attempts, and the projects of
 * one account. Every project operation names the account it acts for and is done in SQL
 * only where the project belongs to it, so a panel route cannot reach another account's
 * project by changing an id. All of it is in the database, never in a process's memory:
 * sessions and throttling hold across `--workers N` and across servers sharing PostgreSQL.
 */
import type { NewProject, Project, RegistryAdmin, ServedRegistry, Usage } from './types.js';

export interface Account {
  id: number;
  /** Lower case; null for an account made by `cpmx tokens create`. */
  email: string | null;
  name: string;
  credits: number;
  disabled: boolean;
  admin: boolean;
  /** ISO 8601. */
  created: string;
}

/** An account as the administrator's list shows it. */
export interface AccountSummary extends Account {
  projects: number;
  /** Credits spent by its projects (those not deleted). */
  used: number;
}

export interface NewAccount {
  email: string;
  name: string;
  /** scrypt's, as src/panel/password.ts writes it; never the password. */
  passwordHash: string;
  credits: number;
  admin?: boolean | undefined;
}

/** What a log-in changes besides making its session, in the same transaction. */
export interface SessionStart {
  /** The session this browser had (its id as the registry keeps it): ended. */
  ends?: string | undefined;
  /** The attempts this log-in recorded (attempt's answer): forgotten, since it was right. */
  forgets?: readonly number[] | undefined;
}

/** One throttled kind of attempt: at most `limit` recorded in the last `windowMs` for `key`. */
export interface AttemptLimit {
  key: string;
  limit: number;
  windowMs: number;
}

export interface PanelStore {
  /** Undefined when the email already has an account. */
  createAccount(account: NewAccount): Promise<Account | undefined>;
  account(id: number): Promise<Account | undefined>;
  /** The account of an email with its password hash, for logging in. */
  credentials(email: string): Promise<{ account: Account; passwordHash: string | null } | undefined>;
  /**
   * Replaces the password hash of the account of `email` and ends every session it has (a new
   * password leaves no one logged in with the old one); `admin` also makes it an administrator
   * (`cpmx panel create-admin`; `reset-password` does not). Undefined when there is no such account.
   */
  setPassword(email: string, passwordHash: string, admin: boolean): Promise<Account | undefined>;
  /** Stores a stronger hash of the same password (made at log-in), if the hash is still `from`; sessions stay. */
  rehashPassword(account: number, from: string, to: string): Promise<boolean>;
  /** Accounts in creation order, `limit` from `offset`, and how many there are. */
  accounts(offset: number, limit: number): Promise<{ accounts: AccountSummary[]; total: number }>;
  /** Adds credits to an account; false when there is no such account. */
  grant(account: number, credits: number): Promise<boolean>;
  /** Disabling also ends the account's sessions; its tokens answer 107 from the next request. */
  setDisabled(account: number, disabled: boolean): Promise<boolean>;

  createProject(project: NewProject): Promise<Project>;
  /** A new project of `account` named `name`, unless it has `max` projects already (undefined); counted and made in one transaction. */
  addProject(account: number, name: string, max: number): Promise<Project | undefined>;
  /** The account's projects, each with its live token (or its latest, revoked by an operator). */
  projectsOf(account: number): Promise<Project[]>;
  projectOf(account: number, project: number): Promise<Project | undefined>;
  renameProject(account: number, project: number, name: string): Promise<boolean>;
  /** Deletes the project, its tokens (they answer 107 at once) and its usage. */
  deleteProject(account: number, project: number): Promise<boolean>;
  /** A new token for the project; the old one answers 107 from the next request. */
  regenerateProject(account: number, project: number): Promise<string | undefined>;
  projectUsage(account: number, project: number, days: number): Promise<Usage | undefined>;

  /**
   * `id` is the SHA-256 of the cookie's value (a copy of the database holds no live session).
   * What else the log-in changes is done in the same transaction (one commit, one fsync).
   */
  createSession(id: string, account: number, now: number, expires: number, also?: SessionStart): Promise<void>;
  /** The session's account, while it has not expired and the account is not disabled. */
  session(id: string, now: number): Promise<Account | undefined>;
  endSession(id: string): Promise<void>;

  /**
   * Records one attempt under every key, unless one of them already has its limit of attempts
   * in its window: then nothing is recorded and the answer is undefined (refused before
   * anything is checked). Atomic across processes and servers. The ids recorded are returned
   * so that an attempt that turned out right can be forgotten.
   */
  attempt(limits: readonly AttemptLimit[], now: number): Promise<number[] | undefined>;
  forgetAttempts(ids: readonly number[]): Promise<void>;

  /** The secret the panel signs its forms with, shared by every process: `fresh` if there was none yet. */
  panelSecret(fresh: string): Promise<string>;
}

/** Every method of PanelStore: what a store that lives in another thread forwards. */
export const PANEL_METHODS = [
  'createAccount',
  'account',
  'credentials',
  'setPassword',
  'rehashPassword',
  'accounts',
  'grant',
  'setDisabled',
  'createProject',
  'addProject',
  'projectsOf',
  'projectOf',
  'renameProject',
  'deleteProject',
  'regenerateProject',
  'projectUsage',
  'createSession',
  'session',
  'endSession',
  'attempt',
  'forgetAttempts',
  'panelSecret',
] as const satisfies readonly (keyof PanelStore)[];

export type PanelMethod = (typeof PANEL_METHODS)[number];

// PANEL_METHODS names every method: a method added to PanelStore and not to the list fails here.
const everyMethod: Record<Exclude<keyof PanelStore, PanelMethod>, never> = {};
void everyMethod;

/** PanelStore as a synchronous store (SQLite's) implements it. */
export type SyncPanelStore = { [K in keyof PanelStore]: (...args: Parameters<PanelStore[K]>) => Awaited<ReturnType<PanelStore[K]>> };

/** A PanelStore whose every call goes through `call` (another thread, or a promise around a synchronous store). */
export function forwardPanel(call: (method: PanelMethod, args: unknown[]) => Promise<unknown>): PanelStore {
  const store = {} as Record<PanelMethod, (...args: unknown[]) => Promise<unknown>>;
  for (const method of PANEL_METHODS) store[method] = (...args) => call(method, args);
  // Each method hands its arguments through and resolves to what the store's answered.
  return store as PanelStore;
}

/** The management interface with the panel's part (openAdmin). */
export type AdminRegistry = RegistryAdmin & PanelStore;

/** A served registry with the panel's part, which a server's panel uses (openServed). */
export type PanelServedRegistry = ServedRegistry & { readonly panel: PanelStore };

/** Attempts older than this are deleted (longer than any window). */
export const ATTEMPTS_KEPT_MS = 86_400_000;
