/**
 * The registry's schema, one design in both stores (SQLite and PostgreSQL), versioned: the
 * tool creates it and migrates it forward, and refuses a registry whose schema is newer than
 * it knows (written by a later cpmx), rather than misreading it.
 *
 * accounts   who pays: credits live here (email, password hash, disabled and admin are for
 *            the control panel; `cpmx tokens create` makes an account of its own per project)
 * projects   belong to an account and spend its credits
 * tokens     one live token per project (a partial unique index), old ones kept revoked so
 *            their usage stays and a 107 on them is still the project's
 * usage      per token and UTC day: requests answered, credits spent
 * errors     the latest 107 and 108 answers per project (pruned to ERRORS_KEPT)
 * ledger     PostgreSQL only: what the last batch of each connection spent, so that a batch
 *            whose commit was in doubt when the connection broke can be checked and undone
 * barriers   PostgreSQL only: one row per connection, rewritten by `cpmx.durable`
 * sessions   (version 2) the control panel's sessions: the SHA-256 of the cookie, never the
 *            cookie itself; times in milliseconds since 1970
 * attempts   (version 2) log-ins and sign-ups tried, per key (account, address), for throttling
 * panel_secret (version 2) one row: the key the panel signs its forms' CSRF tokens with
 * owners     (version 3) the server processes using the registry now, and how to tell one is
 *            gone: SQLite, its host, pid and start time; PostgreSQL, a session advisory lock
 * inflight   (version 3) each credit spent whose answer is not yet known written, with the
 *            owner and batch that spent it: deleted once written, given back otherwise (by the
 *            process itself, or by another once the owner is gone). It replaces the ledger.
 */
import { POSTGRES_FUNCTIONS_V1, POSTGRES_FUNCTIONS_V3 } from './postgres-functions.js';

/** The schema this cpmx writes and reads. */
export const SCHEMA_VERSION = 3;

/** The refusal for a registry written by a later cpmx. */
export function tooNewMessage(location: string, found: number): string {
  return `${location}: the registry's schema is version ${found}, newer than this cpmx knows (${SCHEMA_VERSION}): upgrade cpmx to use it`;
}

/** SQLite: each migration takes the registry from version i to i + 1 (index i). */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    email TEXT UNIQUE,
    password_hash TEXT,
    name TEXT NOT NULL,
    credits INTEGER NOT NULL CHECK (credits >= 0),
    disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  ) STRICT;
  CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    legacy_used INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  ) STRICT;
  CREATE INDEX projects_of_account ON projects (account_id);
  CREATE TABLE tokens (
    token TEXT PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked TEXT
  ) STRICT, WITHOUT ROWID;
  CREATE UNIQUE INDEX tokens_one_live_per_project ON tokens (project_id) WHERE revoked IS NULL;
  CREATE TABLE usage (
    token TEXT NOT NULL REFERENCES tokens (token) ON DELETE CASCADE,
    day TEXT NOT NULL,
    requests INTEGER NOT NULL DEFAULT 0,
    credits INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (token, day)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE errors (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    token TEXT NOT NULL,
    code INTEGER NOT NULL CHECK (code IN (107, 108)),
    count INTEGER NOT NULL,
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  ) STRICT;
  CREATE INDEX errors_latest ON errors (project_id, id);`,
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX sessions_of_account ON sessions (account_id);
  CREATE INDEX sessions_by_expiry ON sessions (expires);
  CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX attempts_by_key ON attempts (key, at);
  CREATE INDEX attempts_by_age ON attempts (at);
  CREATE TABLE panel_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
  ) STRICT;`,
  `CREATE TABLE owners (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started TEXT NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE inflight (
    owner TEXT NOT NULL,
    batch INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    token TEXT NOT NULL,
    day TEXT NOT NULL,
    PRIMARY KEY (owner, batch, idx)
  ) STRICT, WITHOUT ROWID;`,
];

/**
 * SQLite before versioning (cpmx 0.1): one table `projects (token, name, credits, used,
 * revoked, created)`. Each of its projects becomes an account of its own with one project and
 * its token; credits spent before per-day usage existed are kept as `legacy_used`.
 */
export const SQLITE_FROM_UNVERSIONED = `
  ALTER TABLE projects RENAME TO projects_unversioned;
  ${SQLITE_MIGRATIONS[0]}
  INSERT INTO accounts (id, name, credits, created)
    SELECT rowid, name, credits, created FROM projects_unversioned;
  INSERT INTO projects (id, account_id, name, legacy_used, created)
    SELECT rowid, rowid, name, used, created FROM projects_unversioned;
  INSERT INTO tokens (token, project_id, created, revoked)
    SELECT token, rowid, created, CASE WHEN revoked <> 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END FROM projects_unversioned;
  DROP TABLE projects_unversioned;`;

/** PostgreSQL: everything lives in the schema `cpmx`, so the registry can share a database. */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE cpmx.accounts (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    email text UNIQUE,
    password_hash text,
    name text NOT NULL,
    credits bigint NOT NULL CHECK (credits >= 0),
    disabled boolean NOT NULL DEFAULT false,
    admin boolean NOT NULL DEFAULT false,
    created timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE cpmx.projects (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES cpmx.accounts (id) ON DELETE CASCADE,
    name text NOT NULL,
    legacy_used bigint NOT NULL DEFAULT 0,
    created timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX projects_of_account ON cpmx.projects (account_id);
  CREATE TABLE cpmx.tokens (
    token text PRIMARY KEY,
    project_id bigint NOT NULL REFERENCES cpmx.projects (id) ON DELETE CASCADE,
    created timestamptz NOT NULL DEFAULT now(),
    revoked timestamptz
  );
  CREATE UNIQUE INDEX tokens_one_live_per_project ON cpmx.tokens (project_id) WHERE revoked IS NULL;
  CREATE TABLE cpmx.usage (
    token text NOT NULL REFERENCES cpmx.tokens (token) ON DELETE CASCADE,
    day date NOT NULL,
    requests bigint NOT NULL DEFAULT 0,
    credits bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (token, day)
  );
  CREATE TABLE cpmx.errors (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    project_id bigint NOT NULL REFERENCES cpmx.projects (id) ON DELETE CASCADE,
    token text NOT NULL,
    code smallint NOT NULL CHECK (code IN (107, 108)),
    count integer NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX errors_latest ON cpmx.errors (project_id, id);
  CREATE TABLE cpmx.ledger (
    slot uuid PRIMARY KEY,
    seq bigint NOT NULL,
    tokens text[] NOT NULL,
    credits integer[] NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE cpmx.barriers (
    slot uuid PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now()
  );
  ${POSTGRES_FUNCTIONS_V1()}`,
  `CREATE TABLE cpmx.sessions (
    id text PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES cpmx.accounts (id) ON DELETE CASCADE,
    created bigint NOT NULL,
    expires bigint NOT NULL
  );
  CREATE INDEX sessions_of_account ON cpmx.sessions (account_id);
  CREATE INDEX sessions_by_expiry ON cpmx.sessions (expires);
  CREATE TABLE cpmx.attempts (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    key text NOT NULL,
    at bigint NOT NULL
  );
  CREATE INDEX attempts_by_key ON cpmx.attempts (key, at);
  CREATE INDEX attempts_by_age ON cpmx.attempts (at);
  CREATE TABLE cpmx.panel_secret (
    id integer PRIMARY KEY CHECK (id = 1),
    secret text NOT NULL
  );`,
  `CREATE TABLE cpmx.owners (
    id uuid PRIMARY KEY,
    lock_key integer NOT NULL,
    incarnation timestamptz NOT NULL
  );
  CREATE TABLE cpmx.inflight (
    owner uuid NOT NULL,
    batch bigint NOT NULL,
    idx integer NOT NULL,
    token text NOT NULL,
    day date NOT NULL,
    PRIMARY KEY (owner, batch, idx)
  );
  ${POSTGRES_FUNCTIONS_V3()}`,
];
