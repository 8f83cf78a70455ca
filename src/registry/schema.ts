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
 */

/** The schema this cpmx writes and reads. */
export const SCHEMA_VERSION = 2;

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
];

/**
 * One batch of visits, in one transaction (the caller's statement): each account row touched
 * is locked in account order (so concurrent batches cannot deadlock), its credits are taken
 * for the batch's requests in their order while any are left, and written once; usage and
 * errors are added per token; what was spent is written to the connection's ledger row.
 * Kinds: 0 look, 1 spend, 2 refund. Outcomes: 0 spent, 1 none left, 2 unknown, 3 looked,
 * 4 refunded (types.ts).
 */
function POSTGRES_FUNCTIONS_V1(): string {
  return `
  CREATE FUNCTION cpmx.visit(p_slot uuid, p_seq bigint, p_tokens text[], p_kinds smallint[],
                             OUT outcomes smallint[], OUT lefts integer[])
  LANGUAGE plpgsql AS $fn$
  DECLARE
    n integer := coalesce(cardinality(p_tokens), 0);
    r record;
    acc bigint;
    have bigint;
    had bigint;
    off boolean;
    today date := (now() AT TIME ZONE 'UTC')::date;
    u_token text[] := '{}';
    u_req integer[] := '{}';
    u_cred integer[] := '{}';
    e_project bigint[] := '{}';
    e_token text[] := '{}';
    e_code smallint[] := '{}';
    s_token text[] := '{}';
  BEGIN
    outcomes := array_fill(2::smallint, ARRAY[n]);
    lefts := array_fill(NULL::integer, ARRAY[n]);
    FOR r IN
      SELECT w.i::integer AS i, w.token, w.kind, t.project_id, t.revoked IS NOT NULL AS revoked, p.account_id
        FROM unnest(p_tokens, p_kinds) WITH ORDINALITY AS w(token, kind, i)
        JOIN cpmx.tokens t ON t.token = w.token
        JOIN cpmx.projects p ON p.id = t.project_id
       ORDER BY p.account_id, w.i
    LOOP
      IF acc IS DISTINCT FROM r.account_id THEN
        IF have IS DISTINCT FROM had THEN
          UPDATE cpmx.accounts SET credits = have WHERE id = acc;
        END IF;
        acc := r.account_id;
        SELECT a.credits, a.disabled INTO had, off FROM cpmx.accounts a WHERE a.id = acc FOR NO KEY UPDATE;
        have := had;
      END IF;
      IF r.kind = 2 THEN
        have := have + 1;
        outcomes[r.i] := 4;
        lefts[r.i] := have;
        u_token := u_token || r.token; u_req := u_req || 0; u_cred := u_cred || -1;
        CONTINUE;
      END IF;
      u_token := u_token || r.token; u_req := u_req || 1;
      IF r.revoked OR off THEN
        u_cred := u_cred || 0;
        e_project := e_project || r.project_id; e_token := e_token || r.token; e_code := e_code || 107::smallint;
      ELSIF r.kind = 0 THEN
        u_cred := u_cred || 0;
        outcomes[r.i] := 3;
        lefts[r.i] := have;
      ELSIF have > 0 THEN
        have := have - 1;
        u_cred := u_cred || 1;
        s_token := s_token || r.token;
        outcomes[r.i] := 0;
        lefts[r.i] := have;
      ELSE
        u_cred := u_cred || 0;
        outcomes[r.i] := 1;
        lefts[r.i] := 0;
        e_project := e_project || r.project_id; e_token := e_token || r.token; e_code := e_code || 108::smallint;
      END IF;
    END LOOP;
    IF have IS DISTINCT FROM had THEN
      UPDATE cpmx.accounts SET credits = have WHERE id = acc;
    END IF;
    IF cardinality(u_token) > 0 THEN
      INSERT INTO cpmx.usage AS u (token, day, requests, credits)
        SELECT x.token, today, sum(x.req), sum(x.cred) FROM unnest(u_token, u_req, u_cred) AS x(token, req, cred)
         GROUP BY x.token ORDER BY x.token
        ON CONFLICT (token, day) DO UPDATE SET requests = u.requests + EXCLUDED.requests, credits = u.credits + EXCLUDED.credits;
    END IF;
    IF cardinality(e_token) > 0 THEN
      INSERT INTO cpmx.errors (project_id, token, code, count)
        SELECT x.project, x.token, x.code, count(*) FROM unnest(e_project, e_token, e_code) AS x(project, token, code)
         GROUP BY x.project, x.token, x.code ORDER BY x.project, x.token, x.code;
      DELETE FROM cpmx.errors e
       WHERE e.project_id = ANY (e_project)
         AND e.id < (SELECT min(k.id) FROM (SELECT e2.id FROM cpmx.errors e2 WHERE e2.project_id = e.project_id ORDER BY e2.id DESC LIMIT 100) k);
    END IF;
    IF p_slot IS NOT NULL AND cardinality(s_token) > 0 THEN
      INSERT INTO cpmx.ledger AS l (slot, seq, tokens, credits)
        SELECT p_slot, p_seq, array_agg(x.token ORDER BY x.token), array_agg(x.c ORDER BY x.token)
          FROM (SELECT token, count(*)::integer AS c FROM unnest(s_token) AS token GROUP BY token) x
        ON CONFLICT (slot) DO UPDATE SET seq = EXCLUDED.seq, tokens = EXCLUDED.tokens, credits = EXCLUDED.credits, at = now();
    END IF;
  END
  $fn$;

  -- The barrier after a batch committed without waiting for the disk: a write of its own (a
  -- commit with nothing written would not wait for the disk either), committed
  -- synchronously. The log is flushed in order, so the batch before it is on disk too.
  CREATE FUNCTION cpmx.durable(p_slot uuid) RETURNS void
  LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM set_config('synchronous_commit', 'on', true);
    INSERT INTO cpmx.barriers AS b (slot) VALUES (p_slot) ON CONFLICT (slot) DO UPDATE SET at = now();
  END
  $fn$;

  -- Undoes a connection's last batch if it is the one asked about and it committed: the
  -- worker answered its requests 503 without knowing. Returns the credits given back.
  CREATE FUNCTION cpmx.undo(p_slot uuid, p_seq bigint) RETURNS integer
  LANGUAGE plpgsql AS $fn$
  DECLARE
    l record;
    r record;
    total integer := 0;
  BEGIN
    SELECT * INTO l FROM cpmx.ledger WHERE slot = p_slot AND seq = p_seq FOR UPDATE;
    IF NOT FOUND THEN
      RETURN 0;
    END IF;
    FOR r IN
      SELECT x.token, x.c, p.account_id
        FROM unnest(l.tokens, l.credits) AS x(token, c)
        JOIN cpmx.tokens t ON t.token = x.token
        JOIN cpmx.projects p ON p.id = t.project_id
       ORDER BY p.account_id, x.token
    LOOP
      UPDATE cpmx.accounts SET credits = credits + r.c WHERE id = r.account_id;
      UPDATE cpmx.usage SET credits = credits - r.c
       WHERE token = r.token AND day = (SELECT max(day) FROM cpmx.usage WHERE token = r.token);
      total := total + r.c;
    END LOOP;
    DELETE FROM cpmx.ledger WHERE slot = p_slot;
    RETURN total;
  END
  $fn$;`;
}
