/**
 * Every portal page, for the look-and-accessibility pass (`portal-pages.test.ts`): each is opened in
 * Chromium at 390 px and 1280 px by each role listed, screenshotted into `.tmp/screenshots/`, checked
 * by axe-core and for anything wider than the screen. Add a page here when you add one.
 *
 * `path` gets ids of records of the seeded workspace (the `seed` command's demo firm).
 */
import { sql } from 'drizzle-orm'
import type { Role } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'

export interface SampleIds {
	workspace: string
	jobId: string
	candidateId: string
	applicationId: string
	threadId: string | null
	interviewId: string | null
	vendorId: string | null
	templateId: string | null
	webhookId: string | null
}

export interface PortalPageCase {
	readonly name: string
	readonly path: (ids: SampleIds) => string
	/** Roles that open this page (default: owner and recruiter). */
	readonly roles?: readonly Role[]
	/** A control to show open (the first `<details>` it matches): menus are screenshotted and checked open too. */
	readonly open?: string
	/** A button to press first when it is shown (the phone's Menu), so the page is screenshotted and checked with it pressed. */
	readonly press?: string
	/** A key to press first (`?`: the shortcut list). */
	readonly key?: string
}

export const PORTAL_PAGES: readonly PortalPageCase[] = [
	{ name: 'home', path: () => '/portal', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	// The header search's results page (issue 31): every role, grouped by the types it may see.
	{ name: 'search', path: () => '/search?q=developer', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	// The header's controls (issue 31): the phone's menu open, the shortcut list, the desktop's More menu.
	{ name: 'menu', path: () => '/portal', press: '[data-menu-button]', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'shortcuts', path: () => '/jobs', key: '?', roles: ['owner'] },
	{ name: 'more', path: () => '/portal', open: 'header details.nav-more', roles: ['owner'] },
	{ name: 'jobs', path: () => '/jobs', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'jobs-filtered', path: () => '/jobs?status=Open&location=tx&sort=title', roles: ['owner'] },
	// A change's confirmation next to what made it (issue 31): the job's buttons, Move to stage.
	{ name: 'job-done', path: (ids) => `/jobs/${ids.jobId}?done=hiring-on`, roles: ['owner'] },
	// The hiring team's confirmation in its section, beside Take off the team and Add to the team.
	{ name: 'job-team-done', path: (ids) => `/jobs/${ids.jobId}?done=team-added`, roles: ['owner'] },
	{ name: 'application-done', path: (ids) => `/applications/${ids.applicationId}?done=stage`, roles: ['owner'] },
	{ name: 'job-new', path: () => '/jobs/new', roles: ['owner', 'recruiter', 'hiring_manager'] },
	// The browser's hiring manager is on no job's team: a job's page is a 404 for them.
	{ name: 'job', path: (ids) => `/jobs/${ids.jobId}`, roles: ['owner', 'recruiter', 'viewer'] },
	// The pipeline board with a card's Move menu open (issue 31).
	{ name: 'job-move', path: (ids) => `/jobs/${ids.jobId}`, open: 'section.stage details.move' },
	{ name: 'job-stage', path: (ids) => `/jobs/${ids.jobId}?stage=applied` },
	// A bulk action's report page, as it is when nothing waits to be reported (the report itself: tests/browser/quick-actions.test.ts).
	{ name: 'bulk-report', path: () => '/applications/bulk', roles: ['owner'] },
	{ name: 'job-bench', path: (ids) => `/jobs/${ids.jobId}?list=bench`, roles: ['owner'] },
	{ name: 'calendar', path: () => '/calendar', roles: ['owner', 'recruiter', 'hiring_manager'] },
	{ name: 'calendar-team', path: () => '/calendar?scope=workspace' },
	{ name: 'api-access', path: () => '/settings/api' },
	{ name: 'password', path: () => '/settings/password', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'security', path: () => '/settings/security', roles: ['owner', 'viewer'] },
	{ name: 'single-sign-on', path: () => '/settings/sso', roles: ['owner'] },
	{ name: 'forgot-password', path: () => '/sign-in/forgot-password', roles: ['owner'] },
	{ name: 'sign-in-sso', path: () => '/sign-in/sso', roles: ['owner'] },
	{ name: 'help-assistants', path: () => '/help/assistants', roles: ['owner'] },
	{ name: 'calendar-settings', path: () => '/settings/calendar' },
	{ name: 'people', path: () => '/people', roles: ['owner'] },
	{ name: 'activity', path: () => '/activity', roles: ['owner'] },
	// Narrowed by record type and days (issue 31).
	{ name: 'activity-filtered', path: () => `/activity?type=application&from=2020-01-01&until=${new Date().toISOString().slice(0, 10)}`, roles: ['owner'] },
	{ name: 'inbox', path: () => '/inbox' },
	{ name: 'inbox-thread', path: (ids) => (ids.threadId ? `/inbox/${ids.threadId}` : '/inbox') },
	{ name: 'todos', path: () => '/todos' },
	{ name: 'saved-searches', path: () => '/saved-searches' },
	{ name: 'lookups', path: () => '/lookups', roles: ['owner'] },
	{ name: 'outbox', path: () => '/outbox', roles: ['owner'] },
	{ name: 'application', path: (ids) => `/applications/${ids.applicationId}` },
	{ name: 'scorecard', path: (ids) => `/applications/${ids.applicationId}/scorecard` },
	{ name: 'job-scorecard', path: (ids) => `/jobs/${ids.jobId}/scorecard`, roles: ['owner'] },
	{ name: 'schedule-interview', path: (ids) => `/applications/${ids.applicationId}/schedule` },
	{ name: 'application-vendor-check', path: (ids) => `/applications/${ids.applicationId}?check=vendor` },
	{ name: 'candidates', path: () => '/candidates', roles: ['owner', 'recruiter', 'hiring_manager'] },
	{ name: 'candidates-search', path: (ids) => `/candidates?q=developer&jobId=${ids.jobId}` },
	// Filters, an order and a search just saved (its confirmation beside Save this search), issue 31.
	{ name: 'candidates-filtered', path: () => '/candidates?workAuthorization=USC%2CGC&sort=name&done=search-saved', roles: ['owner', 'recruiter'] },
	// A hiring manager made for the pass is on no hiring team: every candidate is out of their reach.
	{ name: 'candidate', path: (ids) => `/candidates/${ids.candidateId}` },
	{ name: 'analytics', path: () => '/analytics', roles: ['owner', 'recruiter', 'hiring_manager'] },
	{ name: 'analytics-week', path: () => '/analytics?range=7', roles: ['owner'] },
	{ name: 'interviews', path: () => '/interviews', roles: ['owner', 'recruiter', 'hiring_manager'] },
	{ name: 'interviews-completed', path: () => '/interviews?status=completed', roles: ['owner'] },
	{ name: 'interview', path: (ids) => (ids.interviewId ? `/interviews/${ids.interviewId}` : '/interviews') },
	{ name: 'vendors', path: () => '/vendors' },
	{ name: 'vendor', path: (ids) => (ids.vendorId ? `/vendors/${ids.vendorId}` : '/vendors') },
	{ name: 'vendor-submissions', path: (ids) => (ids.vendorId ? `/vendors/${ids.vendorId}/submissions` : '/vendors'), roles: ['owner'] },
	{ name: 'bench', path: () => '/bench' },
	{ name: 'bench-family', path: () => '/bench?family=java', roles: ['owner'] },
	{ name: 'message-new', path: (ids) => `/inbox/new?application=${ids.applicationId}${ids.templateId ? `&template=${ids.templateId}` : ''}` },
	{ name: 'message-find', path: () => '/inbox/new?q=developer', roles: ['owner'] },
	{ name: 'profile', path: () => '/settings/profile', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'notifications', path: () => '/notifications', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'templates', path: () => '/settings/templates' },
	{ name: 'template-new', path: () => '/settings/templates/new', roles: ['owner'] },
	{ name: 'template', path: (ids) => (ids.templateId ? `/settings/templates/${ids.templateId}` : '/settings/templates') },
	{ name: 'webhooks', path: () => '/settings/webhooks', roles: ['owner'] },
	{ name: 'webhook', path: (ids) => (ids.webhookId ? `/settings/webhooks/${ids.webhookId}` : '/settings/webhooks'), roles: ['owner'] },
	// Last: by now the tour has viewed candidates and applications, so the trail has lines to show.
	{ name: 'audit', path: () => '/audit', roles: ['owner'] },
	{ name: 'eeo', path: () => '/eeo', roles: ['owner'] },
	{ name: 'candidate-erase', path: (ids) => `/candidates/${ids.candidateId}/erase`, roles: ['owner'] },
	{ name: 'privacy-settings', path: () => '/settings/privacy', roles: ['owner'] },
	{ name: 'privacy-requests', path: () => '/privacy-requests', roles: ['owner'] },
	// The public page where a person asks for their data or its erasure (no account needed; opened signed in here).
	{ name: 'privacy-request-form', path: (ids) => `/careers/${ids.workspace}/privacy`, roles: ['owner'] },
	// The public careers site (issue 29): the job list with a search and every filter applied, and unfiltered.
	{ name: 'careers-search', path: (ids) => `/careers/${ids.workspace}?q=engineer&location=TX&type=Contract`, roles: ['owner'] },
	{ name: 'careers', path: (ids) => `/careers/${ids.workspace}`, roles: ['owner'] },
	// The Job Publish API's docs page (public).
	{ name: 'api-docs', path: () => '/api/v1/docs', roles: ['owner'] },
]

/** The records of a seeded workspace the pages are opened on. */
export async function sampleIds(deps: AppDeps, ws: { id: string; slug: string }): Promise<SampleIds> {
	const firstId = async (query: ReturnType<typeof sql>) => (await deps.database.rows<{ id: string }>(query))[0]?.id ?? null
	const w = ws.id
	return {
		workspace: ws.slug,
		jobId: (await firstId(sql`select id from jobs where workspace_id = ${w} and status = 'Open' order by id limit 1`))!,
		candidateId: (await firstId(sql`select candidate_id as id from applications where workspace_id = ${w} order by id limit 1`))!,
		// The application page shows the most on a vendor's job with a completed AI interview.
		applicationId: (await firstId(
			sql`select a.id from applications a join jobs j on j.id = a.job_id where a.workspace_id = ${w}
			order by (j.vendor_id is not null) desc, exists (select 1 from interviews i where i.application_id = a.id and i.status = 'completed') desc, a.id limit 1`,
		))!,
		threadId: await firstId(sql`select id from inbox_threads where workspace_id = ${w} order by id limit 1`),
		interviewId: await firstId(sql`select id from interviews where workspace_id = ${w} order by status = 'completed' desc, id limit 1`),
		vendorId: await firstId(
			sql`select v.id from vendors v where v.workspace_id = ${w} order by (select count(*) from jobs j where j.vendor_id = v.id and j.status = 'Open') desc, v.id limit 1`,
		),
		templateId: await firstId(sql`select id from message_templates where workspace_id = ${w} and owner_user_id is null order by name limit 1`),
		webhookId: await firstId(sql`select id from webhook_endpoints where workspace_id = ${w} and vendor_id is null order by created_at limit 1`),
	}
}
