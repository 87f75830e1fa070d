/** The bench tools: thin adapters over `service.ts` and `match.ts`. */
import { Type as t } from '@sinclair/typebox'
import { cursor, id, limit, nullable, oneOf, page, params, PersonRef } from '../../core/mcp/params.ts'
import { UntrustedLine } from '../../core/untrusted.ts'
import { defineTool } from '../../core/module.ts'
import { ROLE_FAMILIES, type RoleFamily } from './family.ts'
import { jobBench } from './match.ts'
import { addToBench, listBench } from './service.ts'

const CandidateRef = t.Object({ id: t.String(), name: UntrustedLine, headline: nullable(UntrustedLine), location: nullable(UntrustedLine) })
const BenchEntry = t.Object({
	id: t.String({ description: 'Bench entry id' }),
	candidate: CandidateRef,
	roleFamily: oneOf(ROLE_FAMILIES),
	skills: t.Array(UntrustedLine),
	job: nullable(t.Object({ id: t.String(), title: UntrustedLine })),
	addedAt: t.String({ format: 'date-time' }),
	addedBy: nullable(PersonRef),
	availableFrom: nullable(t.String({ format: 'date', description: 'Date the person can start (null: now)' })),
	hourlyRate: nullable(t.Integer()),
})
const Ranked = t.Object({
	rank: t.Integer(),
	score: t.Integer({ description: '0–100: must-haves 60, nice-to-haves 15, role family 15, availability 10' }),
	benchEntryId: t.String(),
	candidate: CandidateRef,
	roleFamilies: t.Array(oneOf(ROLE_FAMILIES)),
	skills: t.Array(UntrustedLine),
	availableFrom: nullable(t.String({ format: 'date' })),
	hourlyRate: nullable(t.Integer()),
	mustHavesMet: t.Integer(),
	mustHavesTotal: t.Integer(),
	missing: t.Array(UntrustedLine, { description: 'The job’s must-haves the résumé does not show' }),
	niceToHavesMet: t.Array(UntrustedLine, { description: 'The job’s nice-to-haves the résumé shows' }),
	reasons: t.Array(t.String(), { description: 'Why the person ranks where they do, in our words' }),
})

export const benchTools = [
	defineTool({
		name: 'list_bench',
		title: 'List the bench',
		description:
			'People on the bench (candidates the firm markets), newest first, with role family, date added, skills, availability and rate. Paged: pass nextCursor back as cursor.',
		params: params({ limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: page('bench', BenchEntry),
		readOnly: true,
		permission: 'bench:read',
		spec: 'R limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: () => [{ limit: 100 }],
		run: ({ deps, actor }, a) => listBench(deps, actor, { limit: a.limit ?? 25, cursor: a.cursor }),
	}),
	defineTool({
		name: 'get_job_bench',
		title: 'Rank the bench for a job',
		description:
			'Bench people ranked by match to one job: must-haves and nice-to-haves met by their résumé, whether they are on the job’s role-family bench, and availability; each with the reasons for the rank. Paged: pass nextCursor back as cursor.',
		params: params({ jobId: id('job'), limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: t.Object({
			job: t.Object({ id: t.String(), title: UntrustedLine, roleFamily: oneOf(ROLE_FAMILIES) }),
			bench: t.Array(Ranked),
			nextCursor: nullable(t.String()),
		}),
		readOnly: true,
		permission: 'bench:read',
		spec: 'R jobId*(string minLength=1 maxLength=160), limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: (r) =>
			r
				.seen('job')
				.slice(0, 3)
				.map((jobId) => ({ jobId })),
		run: ({ deps, actor }, a) => jobBench(deps, actor, { jobId: a.jobId, limit: a.limit ?? 25, cursor: a.cursor }),
		// Ranking the bench against a job is a search of the candidate database made for that job.
		searchOf: (a) => ({ criteria: { rankedFor: 'job requirements' }, jobId: a.jobId }),
	}),
	defineTool({
		name: 'add_to_bench',
		title: 'Add a candidate to the bench',
		description:
			'Puts a candidate on the bench of a role family, optionally for one job; recorded in the activity log. Adding someone already on that family’s bench changes nothing (created: false).',
		params: params({ candidateId: id('candidate'), roleFamily: oneOf(ROLE_FAMILIES, 'Role family of the bench'), jobId: t.Optional(id('job')) }),
		output: t.Object({ entry: BenchEntry, created: t.Boolean(), message: t.String() }),
		readOnly: false,
		destructive: false,
		idempotent: true,
		permission: 'bench:write',
		spec: 'W candidateId*(string minLength=1 maxLength=160), roleFamily*(enum:java|dotnet|datasci|python|fullstack|qa|sre|devops|cloud|genai|dataeng|dba|privacy|security|workday|salesforce|servicenow|gis|insurance|product|ba|pm|other), jobId(string minLength=1 maxLength=160)',
		testCalls: (r) => [{ candidateId: r.made('candidate'), roleFamily: 'java' as const, jobId: r.made('job') }],
		run: ({ deps, actor }, a) => addToBench(deps, actor, { candidateId: a.candidateId, roleFamily: a.roleFamily as RoleFamily, jobId: a.jobId }),
	}),
]
