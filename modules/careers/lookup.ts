/**
 * The careers site's rules for a public job: Draft jobs and unknown addresses do not exist, and a
 * job's text is shown without hidden formatting (bidirectional controls, tag characters).
 */
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { safeDescriptionHtml } from '../../core/sanitize.ts'
import { CONTROL_CHARS } from '../../core/untrusted.ts'
import { findWorkspace, type Workspace } from '../auth/index.ts'
import { findJobById, findJobBySlug, withoutHiddenFormatting, type PublicJob } from '../jobs/index.ts'

const SLUG = /^[a-z0-9-]{1,80}$/
/** A job's id in its address (`jobAddress`): answered with a redirect to the job's own address. */
const JOB_ID = /^job_[a-z0-9]{1,40}$/

export async function workspaceOr404(deps: AppDeps, slug: string): Promise<Workspace> {
	const ws = SLUG.test(slug) ? await findWorkspace(deps.db, slug) : null
	if (!ws) throw new AppError('NOT_FOUND', 'There is no careers site at this address.')
	return ws
}

/**
 * The job at `/careers/<workspace>/jobs/<slug>` (Open or Closed; the caller shows a closed job as gone),
 * or at `/careers/<workspace>/jobs/<job id>` (the caller redirects to the job's own address).
 */
export async function publicJobAt(deps: AppDeps, workspaceSlug: string, address: string): Promise<{ ws: Workspace; job: PublicJob }> {
	const ws = await workspaceOr404(deps, workspaceSlug)
	const job = SLUG.test(address) ? await findJobBySlug(deps, ws.id, address) : JOB_ID.test(address) ? await findJobById(deps, ws.id, address) : null
	if (!job || job.status === 'Draft') throw new AppError('NOT_FOUND', 'There is no job at this address.')
	return { ws, job: shownJob(job) }
}

const CONTROLS = new RegExp(`[${CONTROL_CHARS}]`, 'g')
/** Text as the public outputs show it: no hidden formatting, no control characters (tab and line breaks kept). */
const shownText = (text: string) => withoutHiddenFormatting(text).replace(CONTROLS, '')

/**
 * A job as the careers site shows it, in every public output (its pages, the feeds, the search and
 * its job alerts): REST publishes are cleaned on the way in; jobs written by people's tools, or stored
 * before a rule, may still carry hidden formatting, control characters (a page, a JSON-LD title or
 * an e-mail would carry them; XML cannot) or a description that was never sanitised.
 */
export function shownJob<J extends PublicJob>(job: J): J {
	const shown = { ...job } as Record<string, unknown>
	for (const [key, value] of Object.entries(job)) {
		if (typeof value === 'string') shown[key] = shownText(value)
		else if (Array.isArray(value)) shown[key] = value.map((item) => (typeof item === 'string' ? shownText(item) : item))
	}
	if (typeof shown.description === 'string') shown.description = safeDescriptionHtml(shown.description)
	return shown as J
}
