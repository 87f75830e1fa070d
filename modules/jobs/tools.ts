/** The job tools: thin adapters over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, id, limit, freeText, nullable, oneLine, oneOf, page, params, PersonRef, searchText } from '../../core/mcp/params.ts'
import { lineAbout, UntrustedLine, UntrustedText } from '../../core/untrusted.ts'
import { JOB_STATUSES, REST_CONTRACT_TYPES, SCHEDULES, VISAS } from './model.ts'
import { createJob, getJob, listJobs, MAX_SALARY, setActivelyHiring, setJobStatus } from './service.ts'

/** A value of a fixed list, kept plain: only the REST API's and create_job's listed values are ever stored. */
const listed = (values: readonly string[]) => t.String({ description: `One of: ${values.join(', ')}` })

// Every text of a job is labelled with its author: the vendor that published it or the colleague who made it.
const JobSummary = t.Object({
	id: t.String(),
	title: UntrustedLine,
	label: lineAbout('The title and, when another job has the same title, what tells this one apart (location, vendor, reference)'),
	status: oneOf(JOB_STATUSES),
	department: UntrustedLine,
	location: nullable(UntrustedLine),
	contractType: nullable(listed([...REST_CONTRACT_TYPES, 'Fulltime'])),
	vendor: nullable(t.Object({ id: t.String(), name: UntrustedLine })),
	applicantCount: t.Integer(),
	activelyHiring: t.Boolean(),
	createdAt: t.String({ format: 'date-time' }),
	publishedAt: nullable(t.String({ format: 'date-time' })),
	url: nullable(t.String({ description: 'Public careers address; null unless the job is Open' })),
})

const JobDetail = t.Composite([
	JobSummary,
	t.Object({
		summary: nullable(UntrustedText),
		description: nullable(UntrustedText),
		requirements: t.Array(UntrustedLine),
		niceToHave: t.Array(UntrustedLine),
		employment: nullable(UntrustedLine),
		visa: nullable(listed(VISAS)),
		interview: nullable(UntrustedLine),
		schedule: nullable(listed(SCHEDULES)),
		minYears: nullable(t.Integer()),
		salaryMin: nullable(t.Integer()),
		salaryMax: nullable(t.Integer()),
		vendorJobId: nullable(UntrustedLine),
		updatedAt: t.String({ format: 'date-time' }),
		closedAt: nullable(t.String({ format: 'date-time' })),
		hiringTeam: t.Array(t.Composite([PersonRef, t.Object({ teamRole: t.String() })])),
		screeningQuestions: t.Array(t.Object({ id: t.String(), prompt: UntrustedLine, kind: t.String(), required: t.Boolean() })),
		applicationsByStage: t.Record(t.String(), t.Integer(), {
			description: 'Number of applications in each pipeline stage, rejected and withdrawn ones left out (they stand in no stage)',
		}),
	}),
])

const oneJob = t.Object({ job: JobDetail })
// Blank items and departments are refused as on the Job Publish API (model.ts): each item feeds résumé checks, a department groups jobs.
// Titles, places and items are one line (createJob refuses a line break or a tab in them): declared, so clients see it.
const item = (max: number) => t.Array(oneLine({ minLength: 1, maxLength: 300, notBlank: true }), { maxItems: max })

/** list_jobs' parameters (also what the jobs list page accepts, with the same limits). */
export const ListJobsParams = params({
	status: t.Optional(oneOf(JOB_STATUSES, 'Only jobs in this status')),
	query: t.Optional(
		searchText(
			'Words to match as search does: every word in the title, skills, location, department or description (the last as a prefix), or a title like it; accents and width do not matter; blank or at least 2 characters',
		),
	),
	limit: t.Optional(limit()),
	cursor: t.Optional(cursor()),
})

/** create_job's parameters: the tool and the New job form check input against these same limits. */
export const CreateJobParams = params({
	title: oneLine({ minLength: 1, maxLength: 200, notBlank: true }),
	department: t.Optional(oneLine({ maxLength: 120, notBlank: true })),
	location: t.Optional(oneLine({ maxLength: 200 })),
	employment: t.Optional(oneLine({ maxLength: 60, description: 'The engagement, e.g. "12-month contract"' })),
	pitch: t.Optional(freeText({ maxLength: 600, description: 'Short summary shown at the top of the job page' })),
	description: t.Optional(freeText({ maxLength: 20000, description: 'Plain text or simple HTML (headings, paragraphs, lists, bold, italics)' })),
	requirements: t.Optional(item(40)),
	niceToHave: t.Optional(item(40)),
	salaryMin: t.Optional(
		t.Integer({ minimum: 0, maximum: MAX_SALARY, description: 'Whole amount in the workspace currency: up to 1,000 an hourly rate, more a yearly salary' }),
	),
	salaryMax: t.Optional(
		t.Integer({
			minimum: 0,
			maximum: MAX_SALARY,
			description: 'Whole amount in the workspace currency; not below salaryMin, and in its unit (both hourly or both yearly)',
		}),
	),
	contractType: t.Optional(t.Union([t.Literal('W2'), t.Literal('C2C'), t.Literal('Fulltime')], { description: 'W2, C2C or Fulltime' })),
	activelyHiring: t.Optional(t.Boolean({ description: 'Needs the actively-hiring permission' })),
})

export const jobTools = [
	defineTool({
		name: 'list_jobs',
		title: 'List jobs',
		description:
			'Jobs of the workspace you can see, newest first, with status, applicant counts and the actively-hiring flag. Filter by status (Open, Draft, Closed) or by words (query, matched as the search tool matches jobs). Paged: pass nextCursor back as cursor.',
		params: ListJobsParams,
		output: page('jobs', JobSummary),
		readOnly: true,
		permission: 'jobs:read',
		spec: 'R status(enum:Open|Draft|Closed), query(string maxLength=120), limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: (r) => [{ limit: 100 }, { query: r.word }],
		run: ({ deps, actor }, a) => listJobs(deps, actor, { status: a.status as never, query: a.query, limit: a.limit ?? 25, cursor: a.cursor }),
	}),
	defineTool({
		name: 'get_job',
		title: 'Get a job',
		description:
			'One job in full: description, requirements, hiring team, screening questions and the number of applications in each pipeline stage. Use an id from list_jobs.',
		params: params({ jobId: id('job') }),
		output: oneJob,
		readOnly: true,
		permission: 'jobs:read',
		spec: 'R jobId*(string minLength=1 maxLength=160)',
		testCalls: (r) => r.seen('job').map((jobId) => ({ jobId })),
		run: async ({ deps, actor }, a) => ({ job: await getJob(deps, actor, a.jobId) }),
	}),
	defineTool({
		name: 'create_job',
		title: 'Create a job (as Draft)',
		description:
			'Creates a job as a Draft; it is not public until an owner or admin opens it with set_job_status. You join its hiring team. activelyHiring needs the actively-hiring permission.',
		params: CreateJobParams,
		output: oneJob,
		readOnly: false,
		destructive: false,
		idempotent: false,
		permission: 'jobs:create',
		spec: 'W title*(string minLength=1 maxLength=200), department(string maxLength=120), location(string maxLength=200), employment(string maxLength=60), pitch(string maxLength=600), description(string maxLength=20000), requirements(array maxItems=40 items:string 1-300), niceToHave(array maxItems=40 items:string 1-300), salaryMin(integer minimum=0 maximum=2147483647), salaryMax(integer minimum=0 maximum=2147483647), contractType(enum:W2|C2C|Fulltime), activelyHiring(boolean)',
		testCalls: () => [{ title: 'Plain Engineer', requirements: ['SQL'] }],
		run: async ({ deps, actor }, a) => ({ job: await createJob(deps, actor, a) }),
	}),
	defineTool({
		name: 'set_job_status',
		title: 'Set a job’s status',
		description: 'Sets a job to Open (live on the careers site), Draft or Closed (taken down). Owners and admins only.',
		params: params({ jobId: id('job'), status: oneOf(JOB_STATUSES) }),
		output: oneJob,
		readOnly: false,
		destructive: false,
		idempotent: true,
		openWorld: true,
		permission: 'jobs:set_status',
		spec: 'W jobId*(string minLength=1 maxLength=160), status*(enum:Open|Draft|Closed)',
		testCalls: (r) => [{ jobId: r.made('job'), status: 'Open' as const }],
		run: async ({ deps, actor }, a) => ({ job: await setJobStatus(deps, actor, a.jobId, a.status as never) }),
	}),
	defineTool({
		name: 'set_job_actively_hiring',
		title: 'Set the actively-hiring flag',
		description: 'Turns a job’s actively-hiring flag on or off. Needs the actively-hiring permission.',
		params: params({ jobId: id('job'), activelyHiring: t.Boolean() }),
		output: oneJob,
		readOnly: false,
		destructive: false,
		idempotent: true,
		permission: 'jobs:actively_hiring',
		spec: 'W jobId*(string minLength=1 maxLength=160), activelyHiring*(boolean)',
		testCalls: (r) => [{ jobId: r.made('job'), activelyHiring: true }],
		run: async ({ deps, actor }, a) => ({ job: await setActivelyHiring(deps, actor, a.jobId, a.activelyHiring) }),
	}),
]
