/**
 * The registry's PostgreSQL functions, as its migrations create them (schema.ts): version 1's
 * batch of visits with its ledger, barrier and undo; version 3's batch with the journal of
 * credits in flight, its release, and the sweep of processes gone. Version 1's stay for a
 * server of an older cpmx still running during an upgrade.
 */

/**
 * One batch of visits, in one transaction (the caller's statement): each account row touched
 * is locked in account order (so concurrent batches cannot deadlock), its credits are taken
 * for the batch's requests in their order while any are left, and written once; usage and
 * errors are added per token; what was spent is written to the connection's ledger row.
 * Kinds: 0 look, 1 spend, 2 refund. Outcomes: 0 spent, 1 none left, 2 unknown, 3 looked,
 * 4 refunded (types.ts).
 */
export function POSTGRES_FUNCTIONS_V1(): string {
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

/**
 * Version 3. `cpmx.spend`: one batch as cpmx.visit does it, with the journal of credits in
 * flight instead of the ledger: each credit spent gets a row (owner, batch, idx) in the same
 * transaction; a refund (kind 2) gives the credit back only if it takes its row away, so a
 * refund tried twice, or one whose row a sweep already released, gives nothing; a settle
 * (kind 3: the answer was written) deletes its row and touches no account.
 * `cpmx.release`: gives back the credits of an owner's rows (one batch, or all of them).
 * `cpmx.sweep`: releases the rows of every owner whose process is gone: its session, which
 * held an advisory lock, ended. An owner registered before the database last started is
 * given a minute to take its lock again.
 */
export function POSTGRES_FUNCTIONS_V3(): string {
  return `
  CREATE FUNCTION cpmx.spend(p_owner uuid, p_batch bigint, p_tokens text[], p_kinds smallint[],
                             p_ref_batches bigint[], p_ref_idx integer[],
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
    s_idx integer[] := '{}';
  BEGIN
    outcomes := array_fill(2::smallint, ARRAY[n]);
    lefts := array_fill(NULL::integer, ARRAY[n]);
    FOR r IN
      SELECT w.i::integer AS i, w.token, w.kind, w.rb, w.ri, t.project_id, t.revoked IS NOT NULL AS revoked, p.account_id
        FROM unnest(p_tokens, p_kinds, p_ref_batches, p_ref_idx) WITH ORDINALITY AS w(token, kind, rb, ri, i)
        JOIN cpmx.tokens t ON t.token = w.token
        JOIN cpmx.projects p ON p.id = t.project_id
       WHERE w.kind <> 3
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
        DELETE FROM cpmx.inflight WHERE owner = p_owner AND batch = r.rb AND idx = r.ri;
        IF FOUND THEN
          have := have + 1;
          outcomes[r.i] := 4;
          lefts[r.i] := have;
          u_token := u_token || r.token; u_req := u_req || 0; u_cred := u_cred || -1;
        END IF;
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
        s_token := s_token || r.token; s_idx := s_idx || (r.i - 1);
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
    IF cardinality(s_token) > 0 THEN
      INSERT INTO cpmx.inflight (owner, batch, idx, token, day)
        SELECT p_owner, p_batch, x.idx, x.token, today FROM unnest(s_idx, s_token) AS x(idx, token);
    END IF;
    DELETE FROM cpmx.inflight i USING unnest(p_kinds, p_ref_batches, p_ref_idx) AS s(kind, rb, ri)
     WHERE s.kind = 3 AND i.owner = p_owner AND i.batch = s.rb AND i.idx = s.ri;
  END
  $fn$;

  CREATE FUNCTION cpmx.release(p_owner uuid, p_batch bigint) RETURNS integer
  LANGUAGE plpgsql AS $fn$
  DECLARE
    r record;
    tk text[];
    dy date[];
    total integer := 0;
  BEGIN
    WITH gone AS (
      DELETE FROM cpmx.inflight WHERE owner = p_owner AND (p_batch IS NULL OR batch = p_batch) RETURNING token, day
    ) SELECT array_agg(token), array_agg(day) INTO tk, dy FROM gone;
    IF tk IS NULL THEN
      RETURN 0;
    END IF;
    FOR r IN
      SELECT x.token, x.day, count(*)::integer AS c, p.account_id
        FROM unnest(tk, dy) AS x(token, day)
        JOIN cpmx.tokens t ON t.token = x.token
        JOIN cpmx.projects p ON p.id = t.project_id
       GROUP BY x.token, x.day, p.account_id
       ORDER BY p.account_id, x.token, x.day
    LOOP
      UPDATE cpmx.accounts SET credits = credits + r.c WHERE id = r.account_id;
      UPDATE cpmx.usage SET credits = credits - r.c WHERE token = r.token AND day = r.day;
      total := total + r.c;
    END LOOP;
    RETURN total;
  END
  $fn$;

  CREATE FUNCTION cpmx.sweep(p_me uuid) RETURNS integer
  LANGUAGE plpgsql AS $fn$
  DECLARE
    o record;
    total integer := 0;
  BEGIN
    FOR o IN SELECT id, lock_key, incarnation FROM cpmx.owners WHERE id IS DISTINCT FROM p_me ORDER BY id LOOP
      CONTINUE WHEN o.incarnation < pg_postmaster_start_time() AND now() - pg_postmaster_start_time() < interval '1 minute';
      IF pg_try_advisory_xact_lock(hashtext('cpmx owner'), o.lock_key) THEN
        total := total + cpmx.release(o.id, NULL);
        DELETE FROM cpmx.owners WHERE id = o.id;
      END IF;
    END LOOP;
    RETURN total;
  END
  $fn$;`;
}
