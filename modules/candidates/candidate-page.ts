/**
 * `/candidates/<id>`: the profile as `get_candidate` answers the person (contact details only for
 * roles that may see them), skills, applications, the résumé, notes, then the sections other
 * modules add (documents, to-dos, bench, messages, interviews). Other modules' forms on this page
 * post to their own routes and, when refused, render the page again through `candidatePage` with
 * the refused form (this module never imports them: they import it).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { actionNotice, breakable, html, pageSections, portalPage, textOf } from '../../core/html.ts'
import type { RefusedForm } from '../../core/module.ts'
import { errorSummary, facts, pageHeader, plural, when } from '../../core/ui.ts'
import { getCandidate } from './candidate-service.ts'
import { applicationsCard, notesCard, resumeCard, type CandidateDetail } from './page-parts.ts'
import { seesContact } from './reach.ts'
import { resumeAddress } from './resume-download.ts'

/** Confirmations of this module's own forms on the page (`?done=`). */
const NOTICES: Record<string, string> = { 'note-added': 'The note was added.' }

export interface CandidatePageOptions {
	/** The `?done=` key of the change just made (Post/Redirect/Get). */
	done?: string
	/** A form of the page that was refused: shown again with its values and errors. */
	refused?: RefusedForm
	/** The answer's status (422 for bad input, 429 for a limit reached…); 200 by default. */
	status?: number
}

function profileFacts(deps: AppDeps, session: PageSession, c: CandidateDetail) {
	// Contact details come only for roles that may see them (the service leaves them out otherwise).
	const email = 'email' in c ? textOf(c.email) : ''
	const phone = 'phone' in c ? textOf(c.phone) : ''
	const contact: [string, unknown][] = seesContact(deps, session.actor)
		? [
				// A long address breaks after the @ or a dot, never inside a word.
				['E-mail', email ? html`<a href="mailto:${email}">${breakable(email)}</a>` : null],
				['Phone', phone ? html`<a href="tel:${phone.replace(/[^\d+]/g, '')}">${phone}</a>` : null],
			]
		: [['Contact details', 'Hidden for your role']]
	return facts([
		...contact,
		['Work authorization', c.workAuthorization],
		['Experience', c.yearsExperience === null ? null : plural(c.yearsExperience, 'year')],
		['Source', textOf(c.source).replace(/_/g, ' ')],
		['Owner', c.owner?.name],
		['Added', when(c.createdAt, { time: false })],
		['Updated', when(c.updatedAt, { time: false })],
	])
}

export async function candidatePage(deps: AppDeps, session: PageSession, candidateId: string, o: CandidatePageOptions = {}): Promise<Response> {
	const c = await getCandidate(deps, session.actor, candidateId)
	const [address, sections] = await Promise.all([
		resumeAddress(deps, session.actor, c.id),
		pageSections(deps, 'candidate', session, c.id, { refused: o.refused, done: !o.refused && o.done ? o.done : undefined }),
	])
	const errors = o.refused?.errors ?? []
	// The confirmation of a change shows next to the button that made it (the section's, or Add note's).
	const done = !errors.length && o.done ? o.done : undefined
	const meta = [c.headline, c.location].filter(Boolean).join(' · ')
	return portalPage(
		deps,
		session,
		{ title: textOf(c.name), current: '/candidates', hasErrors: errors.length > 0, status: o.status ?? (errors.length ? 422 : 200) },
		html`${errorSummary(errors)}
${pageHeader({ crumbs: [['/candidates', 'Candidates']], title: c.name, meta: meta || null })}
<div class="candidate-layout">
<div class="candidate-profile">
<section class="card" aria-labelledby="profile-h"><h2 id="profile-h" class="visually-hidden">Profile</h2>
${profileFacts(deps, session, c)}
<h3>Skills</h3>
${c.skills.length ? html`<ul class="chips">${c.skills.map((s) => html`<li>${s}</li>`)}</ul>` : html`<p class="empty">No skills on file.</p>`}
</section>
${applicationsCard(c)}
</div>
<div class="candidate-resume">${resumeCard(c, address, { fileHidden: !seesContact(deps, session.actor) })}</div>
<div class="candidate-actions">
${notesCard(session, c, {
	canWrite: deps.permissions.can(session.actor, 'candidates:note'),
	refused: o.refused,
	notice: done && Object.hasOwn(NOTICES, done) ? actionNotice(NOTICES[done]!) : undefined,
})}
${sections}
</div>
</div>`,
	)
}
