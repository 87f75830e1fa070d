/**
 * Every portal page, for the look-and-accessibility pass (`portal-pages.test.ts`): each is opened in
 * Chromium at 390 px and 1280 px by each role listed, screenshotted into `.tmp/screenshots/`, checked
 * by axe-core and for anything wider than the screen. Add a page here when you add one.
 *
 * `path` gets ids of records of the seeded workspace (the `seed` command's demo firm).
 */
import type { Role } from '../../core/actor.ts'

export interface SampleIds {
	workspace: string
	jobId: string
	candidateId: string
	applicationId: string
	threadId: string | null
	interviewId: string | null
	vendorId: string | null
}

export interface PortalPageCase {
	readonly name: string
	readonly path: (ids: SampleIds) => string
	/** Roles that open this page (default: owner and recruiter). */
	readonly roles?: readonly Role[]
}

export const PORTAL_PAGES: readonly PortalPageCase[] = [
	{ name: 'home', path: () => '/portal', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'jobs', path: () => '/jobs', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'job-new', path: () => '/jobs/new', roles: ['owner', 'recruiter', 'hiring_manager'] },
	// The browser's hiring manager is on no job's team: a job's page is a 404 for them.
	{ name: 'job', path: (ids) => `/jobs/${ids.jobId}`, roles: ['owner', 'recruiter', 'viewer'] },
	{ name: 'job-stage', path: (ids) => `/jobs/${ids.jobId}?stage=applied` },
	{ name: 'job-bench', path: (ids) => `/jobs/${ids.jobId}?list=bench`, roles: ['owner'] },
	{ name: 'calendar', path: () => '/calendar', roles: ['owner', 'recruiter', 'hiring_manager'] },
	{ name: 'calendar-team', path: () => '/calendar?scope=workspace' },
	{ name: 'api-access', path: () => '/settings/api' },
	{ name: 'password', path: () => '/settings/password', roles: ['owner', 'recruiter', 'hiring_manager', 'viewer'] },
	{ name: 'forgot-password', path: () => '/sign-in/forgot-password', roles: ['owner'] },
	{ name: 'help-assistants', path: () => '/help/assistants', roles: ['owner'] },
	{ name: 'calendar-settings', path: () => '/settings/calendar' },
	{ name: 'people', path: () => '/people', roles: ['owner'] },
	{ name: 'activity', path: () => '/activity', roles: ['owner'] },
	{ name: 'inbox', path: () => '/inbox' },
	{ name: 'inbox-thread', path: (ids) => (ids.threadId ? `/inbox/${ids.threadId}` : '/inbox') },
	{ name: 'todos', path: () => '/todos' },
	{ name: 'saved-searches', path: () => '/saved-searches' },
	{ name: 'lookups', path: () => '/lookups', roles: ['owner'] },
	{ name: 'outbox', path: () => '/outbox', roles: ['owner'] },
	{ name: 'application', path: (ids) => `/applications/${ids.applicationId}` },
	{ name: 'application-vendor-check', path: (ids) => `/applications/${ids.applicationId}?check=vendor` },
	{ name: 'candidates', path: () => '/candidates', roles: ['owner', 'recruiter', 'hiring_manager'] },
	{ name: 'candidates-search', path: (ids) => `/candidates?q=developer&jobId=${ids.jobId}` },
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
]
