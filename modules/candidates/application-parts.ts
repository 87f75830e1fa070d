/**
 * The application page's own sections, each from what `get_application` returns for the person:
 * the résumé check item by item, the screening answers, ratings and notes.
 */
import { html, type SafeHtml } from '../../core/html.ts'
import { dataTable, plural, tag, when } from '../../core/ui.ts'
import type { getApplication } from './application-service.ts'

export type ApplicationView = Awaited<ReturnType<typeof getApplication>>
type CheckView = NonNullable<ApplicationView['resumeCheck']>
type CheckItemView = CheckView['items'][number]

/** A card with its heading (the heading names the section for screen readers). */
export const card = (id: string, heading: string, body: unknown, intro?: unknown) =>
	html`<section class="card" id="${id}" aria-labelledby="${id}-h"><h2 id="${id}-h">${heading}</h2>${intro ? html`<p class="meta">${intro}</p>` : ''}${body}</section>`

/** The résumé an application came with, when it is not the one on the candidate's profile. */
export interface OwnResume {
	href: string
	fileName: string
}

/**
 * Each must-have of the job, found in the résumé or missing, with the résumé line that matched (or
 * came closest); an application that came with a résumé of its own (`ownResume`) says so and links it.
 */
export function resumeCheckSection(check: ApplicationView['resumeCheck'], ownResume?: OwnResume | null): SafeHtml {
	const own = ownResume
		? html`<p>This application came with its own résumé, <a href="${ownResume.href}">${ownResume.fileName}</a>, and is checked against it. The candidate’s profile keeps the résumé already on file.</p>`
		: ''
	if (!check)
		return card(
			'resume-check',
			'Résumé check',
			html`${own}<p class="empty">Not checked yet: the candidate has no résumé text on file, or the job could not be read.</p>`,
		)
	if (check.total === 0)
		return card('resume-check', 'Résumé check', html`${own}<p class="empty">The job lists no must-haves, so there is nothing to check the résumé against.</p>`)
	const words = (i: CheckItemView) =>
		i.evidence ? (i.status === 'met' ? html`“${i.evidence}”` : html`<span class="meta">Closest line:</span> “${i.evidence}”`) : '—'
	const intro = html`${plural(check.met, 'must-have')} of ${check.total} found${check.score !== null ? ` (score ${check.score} of 100)` : ''}. Checked ${when(check.checkedAt)}.`
	return card(
		'resume-check',
		'Résumé check',
		html`${own}${dataTable<CheckItemView>({
			caption: 'Each must-have of the job against the résumé',
			hideCaption: true,
			columns: [
				{ label: 'Must-have', cell: (i) => i.requirement },
				{ label: 'Résumé words that matched', cell: words },
				{ label: 'Note', cell: (i) => i.note ?? '' },
				{ label: 'Result', cell: (i) => (i.status === 'met' ? tag('found', 'good') : tag('missing', 'bad')) },
			],
			rows: check.items,
			empty: 'No must-haves.',
		})}`,
		intro,
	)
}

export function answersSection(answers: ApplicationView['answers']): SafeHtml {
	if (!answers.length)
		return card(
			'answers',
			'Screening answers',
			html`<p class="empty">No screening answers: the job asks no questions, or the candidate did not apply on the careers site.</p>`,
		)
	return card(
		'answers',
		'Screening answers',
		html`<dl class="answers">${answers.map((a) => html`<dt>${a.prompt}</dt><dd class="lines">${a.answer}</dd>`)}</dl>`,
	)
}

export function ratingsSection(ratings: ApplicationView['ratings'], average: number | null): SafeHtml {
	return card(
		'ratings',
		'Ratings',
		dataTable<ApplicationView['ratings'][number]>({
			caption: 'Ratings of this application',
			hideCaption: true,
			columns: [
				{ label: 'Rated by', cell: (r) => r.by.name || 'A former colleague' },
				{ label: 'Score', cell: (r) => `${r.score} of 5` },
				{ label: 'Comment', cell: (r) => r.comment ?? '' },
				{ label: 'Date', cell: (r) => when(r.createdAt) },
			],
			rows: ratings,
			empty: 'No ratings yet.',
		}),
		average !== null ? `Average ${average} of 5 from ${plural(ratings.length, 'rating')}.` : undefined,
	)
}

/** Notes the person may read (private ones only reach their author, owners and admins: the service decides). */
export function notesSection(notes: ApplicationView['notes'], candidateId: string): SafeHtml {
	const body = notes.length
		? html`<ul class="entries">${notes.map(
				(
					n,
				) => html`<li><p class="meta">${n.author.name || 'A former colleague'} · ${when(n.createdAt)} · ${n.visibility === 'private' ? html`${tag('Private', 'warn')} <span class="visually-hidden">(seen only by its author, owners and admins)</span>` : tag('Shared')}${n.applicationId ? '' : ' · about the candidate'}</p>
<p class="lines">${n.body}</p></li>`,
			)}</ul>`
		: html`<p class="empty">No notes you can see about this application.</p>`
	return card('notes', 'Notes', html`${body}<p><a href="/candidates/${candidateId}">Add a note on the candidate’s page</a></p>`)
}
