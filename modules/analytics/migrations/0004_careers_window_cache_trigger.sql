-- The jobs ranking's cache (careers_window_cache, modules/analytics/ranking.ts) must hear of every
-- change to a day inside a cached window: the counters' trigger now also bumps the version of the
-- windows holding a changed day. Which days a window holds is read under a shared advisory lock of
-- the workspace, which a rebuild takes exclusively while it sets its window's days: so a write either
-- is in the rebuild's snapshot (the rebuild waited for it) or sees the new days and bumps the version
-- (the rebuild then is not published). Writers do not wait for each other, and views of the current
-- day (outside every window) update nothing here.
CREATE OR REPLACE FUNCTION careers_daily_counts_add(changed careers_events[], delta integer) RETURNS void LANGUAGE sql AS $$
	SELECT pg_advisory_xact_lock_shared(hashtextextended('careers_window:' || w, 0)) FROM (SELECT DISTINCT workspace_id AS w FROM unnest(changed) ORDER BY 1) x;
	INSERT INTO careers_daily_sources (workspace_id, day, source, kind, shard, n)
	SELECT workspace_id, (at AT TIME ZONE 'UTC')::date, source, kind, pg_backend_pid() % 16, delta * count(*)::int
	FROM unnest(changed) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT (workspace_id, day, source, kind, shard) DO UPDATE SET n = careers_daily_sources.n + excluded.n;
	INSERT INTO careers_daily_jobs (workspace_id, day, job_id, shard, views, applications)
	SELECT workspace_id, (at AT TIME ZONE 'UTC')::date, job_id, pg_backend_pid() % 4, delta * (count(*) FILTER (WHERE kind = 'view'))::int, delta * (count(*) FILTER (WHERE kind = 'application'))::int
	FROM unnest(changed) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT (workspace_id, day, job_id, shard) DO UPDATE SET views = careers_daily_jobs.views + excluded.views, applications = careers_daily_jobs.applications + excluded.applications;
	UPDATE careers_window_cache c SET version = c.version + 1
	FROM (SELECT DISTINCT workspace_id, (at AT TIME ZONE 'UTC')::date AS day FROM unnest(changed)) ch
	WHERE c.workspace_id = ch.workspace_id AND ch.day >= c.first_day AND ch.day < c.end_day;
$$;
