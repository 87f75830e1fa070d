-- Hourly counters by source (careers_hourly_sources) for the parts of days at a period's ends, and
-- the jobs ranking's cache on whole hours instead of whole days (modules/analytics/ranking.ts): a
-- period `now − N days .. now` then reads events only for the minutes of the hour at each end.
-- The counters' trigger also keeps the hourly counters, and bumps the version of the cached windows
-- holding a changed event's hour (the same shared lock as before: see 0004).
--
-- No event may be written while the hourly counters are filled (to the end of the migration's
-- transaction): the trigger counts what comes after, the fill what came before.
LOCK TABLE careers_events IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- The cache is rebuilt on its next read, on whole hours.
DELETE FROM careers_window_totals;
--> statement-breakpoint
DELETE FROM careers_window_cache;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION careers_daily_counts_add(changed careers_events[], delta integer) RETURNS void LANGUAGE sql AS $$
	SELECT pg_advisory_xact_lock_shared(hashtextextended('careers_window:' || w, 0)) FROM (SELECT DISTINCT workspace_id AS w FROM unnest(changed) ORDER BY 1) x;
	INSERT INTO careers_daily_sources (workspace_id, day, source, kind, shard, n)
	SELECT workspace_id, (at AT TIME ZONE 'UTC')::date, source, kind, pg_backend_pid() % 16, delta * count(*)::int
	FROM unnest(changed) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT (workspace_id, day, source, kind, shard) DO UPDATE SET n = careers_daily_sources.n + excluded.n;
	INSERT INTO careers_hourly_sources (workspace_id, hour, source, kind, shard, n)
	SELECT workspace_id, date_trunc('hour', at, 'UTC'), source, kind, pg_backend_pid() % 16, delta * count(*)::int
	FROM unnest(changed) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT (workspace_id, hour, source, kind, shard) DO UPDATE SET n = careers_hourly_sources.n + excluded.n;
	INSERT INTO careers_daily_jobs (workspace_id, day, job_id, shard, views, applications)
	SELECT workspace_id, (at AT TIME ZONE 'UTC')::date, job_id, pg_backend_pid() % 4, delta * (count(*) FILTER (WHERE kind = 'view'))::int, delta * (count(*) FILTER (WHERE kind = 'application'))::int
	FROM unnest(changed) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT (workspace_id, day, job_id, shard) DO UPDATE SET views = careers_daily_jobs.views + excluded.views, applications = careers_daily_jobs.applications + excluded.applications;
	UPDATE careers_window_cache c SET version = c.version + 1
	FROM (SELECT DISTINCT workspace_id, date_trunc('hour', at, 'UTC') AS hour FROM unnest(changed)) ch
	WHERE c.workspace_id = ch.workspace_id AND ch.hour >= c.first_at AND ch.hour < c.end_at;
$$;
--> statement-breakpoint
INSERT INTO careers_hourly_sources (workspace_id, hour, source, kind, shard, n)
SELECT workspace_id, date_trunc('hour', at, 'UTC'), source, kind, 0, count(*)::int FROM careers_events GROUP BY 1, 2, 3, 4;
