/** Parts of the candidate pages: the stage tag, and the profile's applications, résumé and notes cards. */
import type { PageSession } from '../../core/http/auth.ts'
import { errorsOf, keptText } from '../../core/http/form.ts'
import { breakable, html, textOf, type SafeHtml } from '../../core/html.ts'
import type { RefusedForm } from '../../core/module.ts'
import { csrfField, dataTable, selectField, tag, textArea, when } from '../../core/ui.ts'
import type { getCandidate } from './candidate-service.ts'
import { MAX_NOTE_CHARS } from './notes.ts'

export type CandidateDetail = Awaited<ReturnType<typeof getCandidate>>
type Application = CandidateDetail['applications'][number]

/** Where an application stands, in words: its outcome when it has one, otherwise its stage. */
export function stageTag(a: Pick<Application, 'stageLabel' | 'outcome' | 'archived'>): SafeHtml {
	if (a.outcome === 'hired') return tag('Hired', 'good')
	if (a.outcome === 'rejected') return tag(a.archived ? 'Rejected, archived' : 'Rejected', 'bad')
	if (a.outcome === 'withdrawn') return tag(a.archived ? 'Withdrawn, archived' : 'Withdrawn')
	return tag(a.archived ? `${a.stageLabel}, archived` : a.stageLabel, 'info')
}

export function applicationsCard(c: CandidateDetail): SafeHtml {
	return html`<section class="card" aria-labelledby="applications-h"><h2 id="applications-h">Applications</h2>
${dataTable<Application>({
	caption: `Applications of ${textOf(c.name)}`,
	hideCaption: true,
	rows: c.applications,
	empty: 'No applications you can see.',
	columns: [
		{
			label: 'Job',
			cell: (a) =>
				html`<a href="/applications/${a.id}">${a.job.title || 'Untitled job'}</a>${a.kind === 'lead' ? html` <span class="meta">(lead)</span>` : ''}`,
		},
		{ label: 'Résumé match', numeric: true, cell: (a) => (a.resumeScore === null ? '—' : `${a.resumeScore}%`) },
		{ label: 'Rating', numeric: true, cell: (a) => (a.averageRating === null ? '—' : `${a.averageRating} of 5`) },
		{ label: 'Applied', cell: (a) => when(a.createdAt, { time: false }) },
		{ label: 'Stage', cell: (a) => stageTag(a) },
	],
})}</section>`
}

const FILE_KINDS: Record<string, string> = { pdf: 'PDF', docx: 'Word document' }

/**
 * The PDF on the page: on a desktop, open beside the profile (`.resume-inline`); on a phone, folded
 * behind "Show the PDF on this page" (`.resume-preview`), so it is not loaded unless asked for. The
 * stylesheet shows one of the two (a hidden lazy frame is never loaded).
 */
function pdfFrames(address: string, name: string): SafeHtml {
	const frame = html`<iframe src="${address}#navpanes=0&amp;view=FitH" title="Résumé of ${name} (PDF)" loading="lazy"></iframe>`
	return html`<div class="resume-inline">${frame}</div><details class="resume-preview"><summary>Show the PDF on this page</summary>${frame}</details>`
}

/**
 * The résumé: a PDF opens in the browser's viewer (on the page, or in its own tab) and downloads;
 * a Word file downloads; the text read from it is always on the page. `address` is null when no
 * file is stored or the person may not have it (`fileHidden`: hiring managers, because it carries
 * contact details).
 */
export function resumeCard(c: CandidateDetail, address: string | null, o: { fileHidden: boolean }): SafeHtml {
	const resume = c.resume
	if (!resume)
		return html`<section class="card" id="resume" aria-labelledby="resume-h"><h2 id="resume-h">Résumé</h2><p class="empty">No résumé on file.</p></section>`
	const pdf = resume.fileType === 'pdf'
	const name = textOf(c.name)
	const links = address
		? pdf
			? html`<p class="actions"><a class="button secondary" href="${address}" target="_blank" rel="noopener">Open the résumé</a> <a class="button secondary" href="${address}" download>Download the résumé</a></p>`
			: html`<p class="actions"><a class="button secondary" href="${address}" download>Download the résumé</a></p>`
		: ''
	const hidden =
		o.fileHidden && resume.fileName
			? html`<p class="hint">The file itself is not shown to your role: it carries contact details, which are hidden in the text below.</p>`
			: ''
	return html`<section class="card" id="resume" aria-labelledby="resume-h"><h2 id="resume-h">Résumé</h2>
<p class="meta">${breakable(resume.fileName ?? 'Résumé')}${resume.fileType ? ` · ${FILE_KINDS[resume.fileType] ?? resume.fileType}` : ''}</p>
${links}${hidden}
${pdf && address ? pdfFrames(address, name) : ''}
${
	resume.text
		? html`<details class="resume-text"${pdf && address ? '' : html` open`}><summary>The résumé’s text</summary><pre class="text">${resume.text}</pre></details>`
		: html`<p class="empty">No text could be read from the file.</p>`
}</section>`
}

type Note = CandidateDetail['notes'][number]

export function notesCard(session: PageSession, c: CandidateDetail, o: { canWrite: boolean; refused?: RefusedForm; notice?: SafeHtml }): SafeHtml {
	const errors = errorsOf(o.refused, 'note')
	const jobOf = new Map(c.applications.map((a) => [a.id, a.job.title]))
	const note = (
		n: Note,
	) => html`<li class="note${n.visibility === 'private' ? ' note-private' : ''}" id="note-${n.id}"><p class="meta">${n.author.name || 'Someone'} · ${when(n.createdAt)}${n.applicationId && jobOf.has(n.applicationId) ? html` · about ${jobOf.get(n.applicationId)}` : ''}${n.visibility === 'private' ? html` ${tag('Private', 'warn')}` : ''}</p>
<div class="note-body">${n.body}</div></li>`
	return html`<section class="card" id="notes" aria-labelledby="notes-h"><h2 id="notes-h">Notes</h2>
${c.notes.length ? html`<ol class="notes">${c.notes.map(note)}</ol>` : html`<p class="empty">No notes yet.</p>`}
${
	o.canWrite
		? html`<form method="post" action="/candidates/${c.id}/notes" class="stack" id="add-note" novalidate><h3>Add a note</h3>
${csrfField(session)}
${textArea({ id: 'note-text', name: 'text', label: 'Note', hint: `Plain text, up to ${MAX_NOTE_CHARS.toLocaleString('en-US')} characters. Write @ and a colleague’s name (@Dana Lee) to notify them.`, maxlength: MAX_NOTE_CHARS, rows: 4, value: keptText(o.refused, 'note', 'text'), errors })}
${selectField({
	id: 'note-visibility',
	name: 'visibility',
	label: 'Who can read it',
	value: keptText(o.refused, 'note', 'visibility') ?? 'shared',
	options: [
		['shared', 'Everyone who can see this candidate'],
		['private', 'Only me (and owners and admins)'],
	],
	errors,
})}
${c.applications.length ? selectField({ id: 'note-application', name: 'applicationId', label: 'About', value: keptText(o.refused, 'note', 'applicationId') ?? '', options: [['', 'The candidate in general'], ...c.applications.map((a) => [a.id, `The application for ${a.job.title || 'a job'}`] as const)], errors }) : ''}
<button type="submit">Add note</button>${o.notice}</form>`
		: ''
}</section>`
}
