/**
 * The rows of `bench/scale.ts`, generated in SQL (`generate_series`) on one connection: the big
 * tables' secondary indexes are dropped first and rebuilt after (a bulk build is several times
 * faster than row-by-row upkeep, GIN above all), foreign-key triggers are off for the load (the
 * rows are consistent by construction), then VACUUM ANALYZE.
 *
 * What the portal pages need beyond the list tools' data:
 * - **busy jobs**: `busyJobs` open jobs with `busyApplications` applications each (most still in the
 *   first stages, some rejected, archived or leads), the owner on their hiring teams, so a job page
 *   has a real pipeline and the home's review queue has new applications;
 * - **résumés**: the `resumes` newest candidates have a résumé text (every busy job's applicant and
 *   every bench person among them), so the job page's résumé re-check and bench ranking read real text;
 * - **current résumé checks** on every application (as the apply flow stores them): method version,
 *   the job's must-haves and the résumé's MD5, so no page finds a check to re-run; the items are
 *   synthetic (the first `met` must-haves met), the score is their share;
 * - the activity log (`activity`), AI interviews (`interviews`: two years back to a month ahead, the
 *   owner's and a fifth the hiring manager's, results older than two weeks already seen) and inbox
 *   conversations (`threads`, two messages each, the older ones read).
 */
import type postgres from 'postgres'
import { DEFAULT_STAGES } from '../../modules/candidates/stages.ts'
import { RESUME_CHECK_VERSION } from '../../modules/candidates/resume-check.ts'
import { ROLE_TEMPLATES } from '../../modules/jobs/index.ts'

export interface ScaleSizes {
	candidates: number
	jobs: number
	/** Applications per candidate, spread over all jobs. */
	per: number
	bench: number
	vendorJobs: number
	busyJobs: number
	busyApplications: number
	resumes: number
	activity: number
	interviews: number
	threads: number
}

export const sizesFrom = (env: Record<string, string | undefined>): ScaleSizes => ({
	candidates: Number(env.CANDIDATES ?? 1_000_000),
	jobs: Number(env.JOBS ?? 100_000),
	per: Number(env.APPS_PER_CANDIDATE ?? 2),
	bench: Number(env.BENCH ?? 5_000),
	vendorJobs: Number(env.VENDOR_JOBS ?? 10_000),
	busyJobs: Number(env.BUSY_JOBS ?? 5),
	busyApplications: Number(env.BUSY_APPLICATIONS ?? 5_000),
	resumes: Number(env.RESUMES ?? 50_000),
	activity: Number(env.ACTIVITY ?? 1_000_000),
	interviews: Number(env.INTERVIEWS ?? 100_000),
	threads: Number(env.THREADS ?? 100_000),
})

/** The busy jobs: the newest open ones (job g is Closed when g % 10 = 3, Draft when 7). */
export function busyJobIds(sizes: ScaleSizes): string[] {
	const ids: string[] = []
	for (let g = 1; ids.length < sizes.busyJobs && g <= sizes.jobs; g++) if (g % 10 !== 3 && g % 10 !== 7) ids.push(`job_s${g}`)
	return ids
}

/** The hiring manager's jobs (5 teams; one of them Closed). */
export const hmJobIds = () => [1, 2, 3, 4, 5].map((g) => `job_s${g * 101}`)

const FIRST =
	'Priya Rahul Anil Sunita Wei Li Maria Jose Ahmed Fatima John Mary James Linda Robert Karen Ivan Olga Kenji Yuki Aarav Diya Omar Sara Lucas Emma Noah Ava Mateo Sofia Arjun Kavya Chen Mei Tom Anna David Laura Ravi Neha Sam Grace Victor Elena Hiro Nina Pedro Lucia Daniel Chloe Amit Pooja Sanjay Deepa Kiran Vikram Meera Rohan Isha Tariq Leila'.split(
		' ',
	)
const LAST =
	'Sharma Patel Reddy Nguyen Wang Garcia Smith Johnson Brown Khan Ali Kumar Singh Gupta Lee Kim Tanaka Ivanov Rossi Muller Silva Costa Lopez Martin Davis Miller Wilson Moore Taylor Thomas Anderson Jackson White Harris Clark Lewis Young Iyer Rao Menon Nair Joshi Das Bose Chopra Mehta Shah Verma Yadav Pillai Okafor Mensah Haddad Novak Kowalski Dubois Fischer Weber Schmidt Jensen'.split(
		' ',
	)
const CITIES = [
	'Austin, TX',
	'Dallas, TX',
	'Houston, TX',
	'Chicago, IL',
	'Newark, NJ',
	'Jersey City, NJ',
	'Atlanta, GA',
	'Charlotte, NC',
	'Seattle, WA',
	'Phoenix, AZ',
	'Remote',
]
const COMPANIES = [
	'Capital One',
	'JPMorgan Chase',
	'State Farm',
	'Walmart Labs',
	'American Airlines',
	'USAA',
	'Dell Technologies',
	'AT&T',
	'Charles Schwab',
	'Toyota North America',
	'McKesson',
	'Fidelity Investments',
]

/**
 * Stored résumé checks by role template and must-haves met: `checks[t * STRIDE + met]` (0-based)
 * is the check of an application to a job of template t whose résumé meets the first `met`
 * must-haves; the résumé's hash is added per row.
 */
const STRIDE = Math.max(...ROLE_TEMPLATES.map((r) => r.mustHave.length)) + 1
function checkTable(now: Date): string[] {
	return ROLE_TEMPLATES.flatMap((t) =>
		Array.from({ length: STRIDE }, (_, met) => {
			const total = t.mustHave.length
			const m = Math.min(met, total)
			const items = t.mustHave.map((requirement, i) => ({
				requirement,
				status: i < m ? 'met' : 'not_found',
				evidence: null,
				note: i < m ? null : 'No résumé line names it.',
			}))
			return JSON.stringify({
				version: RESUME_CHECK_VERSION,
				mustHaves: t.mustHave,
				items,
				met: m,
				total,
				score: total ? Math.round((100 * m) / total) : null,
				checkedAt: now.toISOString(),
			})
		}),
	)
}

type Sql = ReturnType<typeof postgres>

export async function generateScaleData(
	pg: Sql,
	ids: { workspaceId: string; vendorId: string; ownerId: string; hmId: string },
	sizes: ScaleSizes,
): Promise<void> {
	const t0 = performance.now()
	const timed = async (label: string, run: () => Promise<unknown>) => {
		const s = performance.now()
		await run()
		console.log(`  ${label}: ${((performance.now() - s) / 1000).toFixed(1)} s`)
	}
	const big = [
		'jobs',
		'candidates',
		'applications',
		'ratings',
		'bench_entries',
		'activity',
		'interviews',
		'interview_views',
		'inbox_threads',
		'inbox_messages',
		'inbox_states',
	]
	const indexes = await pg<
		{ name: string; def: string }[]
	>`select indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and tablename in ${pg(big)} and indexname not in (select conname from pg_constraint)`
	const w = ids.workspaceId
	const t = ROLE_TEMPLATES
	const stages = DEFAULT_STAGES.map((s) => s.key)
	const busy = busyJobIds(sizes)
	const now = new Date()
	const checks = checkTable(now)
	// Template index of job g (1-based array position): the jobs insert gives job g template g % length.
	const templateOf = (job: string) => `(1 + (${job}) % ${t.length})`
	// The stored check of an application to job number `job` by a candidate with résumé hash `hash`:
	// it meets `seed` mod (must-haves + 1) of them.
	const checkOf = (job: string, seed: string, hash: string) =>
		`(($CHECKS::text[])[(${templateOf(job)} - 1) * ${STRIDE} + (${seed}) % (($TOTALS::int[])[${templateOf(job)}] + 1) + 1]::jsonb || jsonb_build_object('resumeHash', ${hash}))`
	const totals = t.map((r) => r.mustHave.length)
	// A candidate's résumé hash, as the check stores it: MD5 of the text ('' when there is none).
	const hashOf = (g: string) =>
		`case when ${g} <= ${sizes.resumes} then (select md5(coalesce(c.resume_text, '')) from candidates c where c.id = 'cand_s' || ${g}) else md5('') end`
	const withChecks = (text: string, first: number) => text.replaceAll('$CHECKS', () => `$${first}`).replaceAll('$TOTALS', () => `$${first + 1}`)

	// One connection for the load, so the session settings hold for every statement.
	await pg.begin(async (tx) => {
		await tx.unsafe(`set local maintenance_work_mem = '1GB'`)
		await tx.unsafe(`set local session_replication_role = replica`) // no FK triggers: the rows are consistent by construction
		await tx.unsafe(`set local synchronous_commit = off`)
		for (const i of indexes) await tx.unsafe(`drop index ${i.name}`)
		await tx`insert into pipeline_stages ${tx(DEFAULT_STAGES.map((s) => ({ workspace_id: w, key: s.key, label: s.label, position: s.position })))} on conflict do nothing`
		await timed('jobs', () =>
			tx.unsafe(
				`insert into jobs (id, workspace_id, vendor_id, vendor_job_id, slug, title, location, summary, must_have, nice_to_have, status, published_at, created_at, updated_at, closed_at)
				select 'job_s' || g, $1, case when g <= $9 then $2 end, case when g <= $9 then 'vj-' || g end, 'job-' || g,
					($3::text[])[1 + g % $8] || ' ' || g, ($6::text[])[1 + g % 11], ($7::text[])[1 + g % $8], string_to_array(($4::text[])[1 + g % $8], '|'), string_to_array(($5::text[])[1 + g % $8], '|'),
					case when g % 10 = 3 then 'Closed' when g % 10 = 7 then 'Draft' else 'Open' end, case when g % 10 <> 7 then now() - g * interval '1 minute' end,
					now() - g * interval '1 minute', now() - g * interval '1 minute', case when g % 10 = 3 then now() end
				from generate_series(1, $10::int) g`,
				[
					w,
					ids.vendorId,
					t.map((r) => r.title),
					t.map((r) => r.mustHave.join('|')),
					t.map((r) => r.niceToHave.join('|')),
					CITIES,
					t.map((r) => r.summary),
					t.length,
					sizes.vendorJobs,
					sizes.jobs,
				],
			),
		)
		await tx`insert into job_team ${tx([...hmJobIds().map((job_id) => ({ job_id, user_id: ids.hmId })), ...busy.map((job_id) => ({ job_id, user_id: ids.ownerId }))])} on conflict do nothing`
		// The newest `resumes` candidates have a résumé (about 1.3 KB, laid out like the demo's).
		await timed('candidates', () =>
			tx.unsafe(
				`insert into candidates (id, workspace_id, name, email, phone, location, headline, skills, work_authorization, years_experience, source, created_at, updated_at, resume_text)
				select id, $1, name, email, phone, location, headline, skills, auth, years, source, at, at,
					case when g <= $11 then name || E'\\n' || email || ' | ' || phone || ' | ' || location || E'\\n\\nSUMMARY\\n' || headline || ' with ' || years || E'+ years of experience building systems for banks, insurers and retailers.\\n\\nSKILLS\\n'
						|| array_to_string(skills, ', ') || E'\\n\\nEXPERIENCE\\n'
						|| ($12::text[])[1 + g % 12] || ' — ' || headline || ', ' || (array['Jan','Apr','Jul','Oct'])[1 + g % 4] || ' ' || (2025 - years / 2) || E' – Present\\n'
						|| '• Built ' || skills[1] || ' services handling ' || (2 + g % 9) || ' million requests a day; cut p95 latency by ' || (20 + g % 50) || E'%.\\n'
						|| '• Led a team of ' || (3 + g % 6) || ' engineers moving batch jobs to ' || coalesce(skills[2], skills[1]) || E' with zero downtime.\\n\\n'
						|| ($12::text[])[1 + (g / 12) % 12] || ' — ' || ($5::text[])[1 + g % $9] || ', ' || (2025 - years) || ' – ' || (2025 - years / 2) || E'\\n'
						|| '• Designed ' || coalesce(skills[3], skills[1]) || ' pipelines and the ' || coalesce(skills[4], skills[1]) || E' test suite used by four product teams.\\n'
						|| E'• Mentored new hires; wrote the on-call runbook.\\n\\nEDUCATION\\nB.S. Computer Science, University of Texas at Austin, ' || (2025 - years - 1)
						|| E'\\nWork authorization: ' || auth end
				from (select g, 'cand_s' || g as id, ($2::text[])[1 + g % $7] || ' ' || ($3::text[])[1 + (g / $7) % $8] as name, 'c' || g || '@scale.test' as email, '+1 512 555 ' || lpad((g % 10000)::text, 4, '0') as phone,
					($4::text[])[1 + (g / 7) % 11] as location, ($5::text[])[1 + g % $9] as headline, string_to_array(($6::text[])[1 + g % $9], '|') as skills,
					(array['USC','GC','H1B','OPT','EAD','TN','L2'])[1 + g % 7] as auth, 1 + g % 20 as years, (array['careers','vendor','referral','sourced','job_board'])[1 + g % 5] as source,
					now() - g * interval '30 seconds' as at
				from generate_series(1, $10::int) g) x`,
				[
					w,
					FIRST,
					LAST,
					CITIES,
					t.map((r) => r.title),
					t.map((r) => [...r.mustHave, ...r.niceToHave].join('|')),
					FIRST.length,
					LAST.length,
					t.length,
					sizes.candidates,
					sizes.resumes,
					COMPANIES,
				],
			),
		)
		// Job number of application k of candidate g: 1 + (2g + 977k) % jobs.
		const jobOf = `(1 + (g * 2 + k * 977) % $3)`
		await timed('applications', () =>
			tx.unsafe(
				withChecks(
					`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, outcome, archived, kind, resume_check, resume_score, source, created_at, updated_at, stage_changed_at)
					select id, $1, candidate_id, job_id, stage_key, outcome, archived, kind, check_, (check_->>'score')::int, 'careers', created_at, updated_at, stage_changed_at from (
					select 'app_s' || g || '_' || k as id, 'cand_s' || g as candidate_id, 'job_s' || ${jobOf} as job_id, ($2::text[])[1 + (g + k) % cardinality($2::text[])] as stage_key,
						case when g % 13 = 0 then 'rejected' end as outcome, g % 11 = 0 as archived, case when k = 1 and g % 7 = 0 then 'lead' else 'applicant' end as kind,
						${checkOf(jobOf, 'g * 37 + k', hashOf('g'))} as check_,
						now() - g * interval '30 seconds' + k * interval '1 second' as created_at, now() - g * interval '30 seconds' as updated_at, now() - g * interval '30 seconds' as stage_changed_at
					from generate_series(1, $4::int) g, generate_series(0, $5::int - 1) k) x`,
					6,
				),
				[w, stages, sizes.jobs, sizes.candidates, sizes.per, checks, totals],
			),
		)
		// Busy jobs: candidate g (g ≤ busyJobs × busyApplications) also applied to busy job (g - 1) % busyJobs,
		// in the last few days; most are in the first stages (a stage by g's percentile), some closed, archived or leads.
		await timed(`${busy.length} busy jobs' applications`, () =>
			tx.unsafe(
				withChecks(
					`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, outcome, archived, kind, resume_check, resume_score, source, created_at, updated_at, stage_changed_at)
					select id, $1, candidate_id, 'job_s' || job, stage_key, outcome, archived, kind, check_, (check_->>'score')::int, 'careers', at, at, at from (
					select 'app_s' || g || '_busy' as id, 'cand_s' || g as candidate_id, job, at,
						($2::text[])[case when p < 55 then 1 when p < 75 then 2 when p < 87 then 3 when p < 95 then 4 when p < 98 then 5 else 6 end] as stage_key,
						case when g % 9 = 0 then 'rejected' when g % 47 = 0 then 'withdrawn' end as outcome, g % 17 = 0 as archived, case when g % 10 = 0 then 'lead' else 'applicant' end as kind,
						${checkOf('job', 'g * 37', hashOf('g'))} as check_
					from (select g, ($3::int[])[1 + (g - 1) % cardinality($3::int[])] as job, (g * 7919) % 100 as p, now() - g * interval '40 seconds' as at from generate_series(1, $4::int) g) y
					-- not a job the candidate already applied to (the unique index is rebuilt after the load)
					where not exists (select 1 from generate_series(0, $7::int - 1) k where 1 + (g * 2 + k * 977) % $8 = job)) x`,
					5,
				),
				[w, stages, busy.map((id) => Number(id.slice('job_s'.length))), busy.length * sizes.busyApplications, checks, totals, sizes.per, sizes.jobs],
			),
		)
		// The per-day counters the analytics funnel reads are kept by a trigger, which is off here.
		await tx.unsafe(
			`insert into application_daily_counts (workspace_id, day, stage_key, outcome, kind, n)
			select workspace_id, (created_at at time zone 'UTC')::date, stage_key, coalesce(outcome, ''), kind, count(*)::int from applications where workspace_id = $1 and id like 'app\\_s%' group by 1, 2, 3, 4, 5
			on conflict (workspace_id, day, stage_key, outcome, kind) do update set n = application_daily_counts.n + excluded.n`,
			[w],
		)
		await tx.unsafe(
			`insert into ratings (id, application_id, user_id, score) select 'rat_s' || g, 'app_s' || g || '_0', $1, 1 + g % 5 from generate_series(10, $2::int, 10) g`,
			[ids.ownerId, sizes.candidates],
		)
		// The bench: people with a résumé (candidate 1 + 7b mod resumes, all distinct while bench ≤ resumes).
		await tx.unsafe(
			`insert into bench_entries (id, workspace_id, candidate_id, role_family, added_by_user_id, hourly_rate, added_at)
			select 'bench_s' || g, $1, 'cand_s' || (1 + (g * 7) % least($3::int, $6::int)), ($2::text[])[1 + g % cardinality($2::text[])], $4, 60 + (g % 8) * 5, now() - g * interval '1 minute'
			from generate_series(1, $5::int) g on conflict do nothing`,
			[w, [...new Set(t.map((r) => r.family))], sizes.candidates, ids.ownerId, sizes.bench, Math.max(sizes.resumes, 1)],
		)
		// Activity: applications received (careers form), stage moves and notes (the owner, in the portal), jobs published (the vendor's key).
		await timed('activity', () =>
			tx.unsafe(
				`insert into activity (id, workspace_id, at, actor_user_id, actor_vendor_id, actor_name, credential_kind, credential_id, credential_name, action, target_type, target_id)
				select 'act_s' || g, $1, now() - g * interval '15 seconds',
					case when g % 4 in (1, 2) then $2 end, case when g % 4 = 3 then $3 end,
					case g % 4 when 0 then c.name when 3 then 'Scale Vendor' else 'Scale Owner' end,
					case g % 4 when 0 then 'careers_form' when 3 then 'vendor_key' else 'session' end, case g % 4 when 0 then 'careers' when 3 then 'key_s' else 'ses_s' end, case g % 4 when 0 then 'Careers site' when 3 then 'Scale key' else 'Portal' end,
					case g % 4 when 0 then 'application.received' when 1 then 'application.stage_changed' when 2 then 'note.added' else 'job.published' end,
					case g % 4 when 0 then 'application' when 1 then 'application' when 2 then 'candidate' else 'job' end,
					case g % 4 when 0 then 'app_s' || n || '_0' when 1 then 'app_s' || n || '_1' when 2 then 'cand_s' || n else 'job_s' || (1 + g % $5) end
				from (select g, 1 + (g * 13) % $4 as n from generate_series(1, $6::int) g) x cross join lateral (select ($7::text[])[1 + x.n % $8] || ' ' || ($9::text[])[1 + (x.n / $8) % $10] as name) c`,
				[w, ids.ownerId, ids.vendorId, sizes.candidates, sizes.jobs, sizes.activity, FIRST, FIRST.length, LAST, LAST.length],
			),
		)
		// AI interviews of candidate n's first application: two years back to a month ahead; the past ones
		// completed (a quarter expired), results older than two weeks seen by their owner.
		await timed('interviews', () =>
			tx.unsafe(
				`insert into interviews (id, workspace_id, candidate_id, job_id, application_id, owner_user_id, status, scheduled_at, duration_minutes, deadline_at, invited_at, completed_at, expired_at, overall_score, verdict, created_at)
				select 'int_s' || g, $1, 'cand_s' || n, 'job_s' || (1 + (n * 2) % $4), 'app_s' || n || '_0', case when g % 5 = 0 then $3 else $2 end,
					case when at > now() then 'invited' when g % 4 = 0 then 'expired' else 'completed' end, at, 30, at + interval '3 days', at - interval '2 days',
					case when at <= now() and g % 4 <> 0 then at + interval '1 hour' end, case when at <= now() and g % 4 = 0 then at + interval '3 days' end,
					case when at <= now() and g % 4 <> 0 then 40 + g % 60 end, case when at <= now() and g % 4 <> 0 then (array['recommended','consider','not_recommended'])[1 + g % 3] end, at - interval '2 days'
				from (select g, 1 + (g * 11) % $5 as n, now() + interval '30 days' - g * ($6::float8 * interval '1 second') as at from generate_series(1, $7::int) g) x`,
				[w, ids.ownerId, ids.hmId, sizes.jobs, sizes.candidates, (760 * 86400) / Math.max(sizes.interviews, 1), sizes.interviews],
			),
		)
		await tx.unsafe(
			`insert into interview_views (interview_id, user_id, seen_at) select id, owner_user_id, completed_at + interval '1 day' from interviews where workspace_id = $1 and status = 'completed' and completed_at < now() - interval '14 days'`,
			[w],
		)
		// Conversations with candidates 1..threads: our message, then their reply on one in three; the owner has read those older than a week.
		await timed('inbox', async () => {
			await tx.unsafe(
				`insert into inbox_threads (id, workspace_id, counterpart_key, counterpart_type, candidate_id, counterpart_name, counterpart_address, subject, message_count, last_message_at, last_inbound_at, snippet, last_message_direction, created_at)
				select 'thr_s' || g, $1, 'candidate:cand_s' || g, 'candidate', 'cand_s' || g, c.name, 'c' || g || '@scale.test', 'Your application: ' || ($4::text[])[1 + g % $5],
					case when g % 3 = 0 then 2 else 1 end, at + case when g % 3 = 0 then interval '2 hours' else interval '0' end, case when g % 3 = 0 then at + interval '2 hours' end,
					case when g % 3 = 0 then 'Thanks, I am available Tuesday or Thursday afternoon.' else 'Hi, thanks for applying. Could we talk this week?' end, case when g % 3 = 0 then 'in' else 'out' end, at
				from (select g, now() - g * interval '5 minutes' as at from generate_series(1, $6::int) g) x
				cross join lateral (select ($2::text[])[1 + g % $3] || ' ' || ($7::text[])[1 + (g / $3) % $8] as name) c`,
				[w, FIRST, FIRST.length, t.map((r) => r.title), t.length, sizes.threads, LAST, LAST.length],
			)
			await tx.unsafe(
				`insert into inbox_messages (id, workspace_id, thread_id, direction, channel, from_address, to_address, subject, text, sent_by_user_id, at)
				select 'msg_s' || t.id || '_' || m, t.workspace_id, t.id, case m when 0 then 'out' else 'in' end, 'email', case m when 0 then 'jobs@scale.test' else t.counterpart_address end,
					case m when 0 then t.counterpart_address else 'jobs@scale.test' end, t.subject,
					case m when 0 then 'Hi, thanks for applying. Could we talk this week about the role and your availability?' else 'Thanks, I am available Tuesday or Thursday afternoon. My rate is negotiable.' end,
					case m when 0 then $2 end, t.created_at + m * interval '2 hours'
				from inbox_threads t cross join generate_series(0, t.message_count - 1) m where t.workspace_id = $1`,
				[w, ids.ownerId],
			)
			await tx.unsafe(
				`insert into inbox_states (thread_id, user_id, read_at) select id, $2, last_message_at + interval '1 hour' from inbox_threads where workspace_id = $1 and last_message_at < now() - interval '7 days'`,
				[w, ids.ownerId],
			)
		})
	})
	// Rebuilt two at a time (two cores); btree builds also use parallel workers. The first failure
	// empties the queue and is thrown once both connections are back.
	await timed(`${indexes.length} indexes rebuilt`, async () => {
		const queue = [...indexes]
		const failures: unknown[] = []
		await Promise.all(
			[0, 1].map(async () => {
				const conn = await pg.reserve()
				try {
					await conn.unsafe(`set maintenance_work_mem = '1GB'`)
					for (let i = queue.shift(); i; i = queue.shift()) await conn.unsafe(i.def)
				} catch (error) {
					failures.push(error)
					queue.length = 0
				} finally {
					conn.release()
				}
			}),
		)
		if (failures.length) throw failures[0]
	})
	await timed('vacuum analyze', () => pg.unsafe('vacuum analyze'))
	const s = sizes
	console.log(
		`Generated ${s.candidates} candidates (${Math.min(s.resumes, s.candidates)} with a résumé), ${s.candidates * s.per + busy.length * s.busyApplications} applications (${busy.length} busy jobs × ${s.busyApplications}), ${s.jobs} jobs, ${s.bench} bench entries, ${s.activity} activity lines, ${s.interviews} interviews, ${s.threads} conversations in ${Math.round((performance.now() - t0) / 1000)} s`,
	)
}
