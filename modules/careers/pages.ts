/** The public careers pages: workspace job lists and the job page with schema.org JSON-LD. */
import type { FieldError } from '../../core/errors.ts'
import { escapeHtml, html, page, raw, type SafeHtml, scriptJson } from '../../core/html.ts'
import { errorSummary, plural, selectField, textField } from '../../core/ui.ts'
import type { Workspace } from '../auth/index.ts'
import type { PublicJob } from '../jobs/index.ts'
import { countryName, EMPLOYMENT_TYPE_LABELS, type JobFacts, type JobPlace, jobFacts } from './job-facts.ts'
import { type CareersResults, criteriaQuery, criteriaWords, hasCriteria, JOB_TYPES, type JobCriteria, MAX_LOCATION, MAX_Q, PAGE_SIZE } from './search.ts'

const jobPath = (ws: Workspace, job: PublicJob) => `/careers/${ws.slug}/jobs/${job.slug}`

export function workspacesPage(list: Workspace[]): Response {
	return page(
		{ title: 'Careers' },
		html`<section class="card"><h1>Careers</h1>
<p>Choose a company to see its open jobs.</p>
<ul class="links">${list.map((ws) => html`<li><a href="/careers/${ws.slug}">${ws.name}</a></li>`)}</ul>
${list.length === 0 ? html`<p>No companies yet.</p>` : ''}</section>`,
	)
}

export interface JobListView {
	results: CareersResults
	criteria: JobCriteria
	/** Problems with the address's search (shown at the top, answered 400). */
	errors: readonly FieldError[]
	/** The job-alert form: its CSRF token, what was typed, its problems, and a notice once sent. */
	alert: { csrf: string; email?: string; errors?: readonly FieldError[]; notice?: string }
}

/** Each filter applied, with the address of the same search without it. */
function appliedFilters(ws: Workspace, c: JobCriteria): [string, string][] {
	const without = (change: Partial<JobCriteria>) => `/careers/${ws.slug}${criteriaQuery({ ...c, ...change })}`
	const applied: [string, string][] = []
	if (c.q) applied.push([`Keywords: ${c.q}`, without({ q: '' })])
	if (c.location) applied.push([`Location: ${c.location}`, without({ location: '' })])
	if (c.remote) applied.push(['Remote only', without({ remote: false })])
	if (c.type) applied.push([`Type: ${c.type}`, without({ type: '' })])
	return applied
}

function searchForm(ws: Workspace, c: JobCriteria, errors: readonly FieldError[]): SafeHtml {
	const typeOptions: [string, string][] = [['', 'Any type'], ...Object.keys(JOB_TYPES).map((t) => [t, t] as [string, string])]
	return html`<form method="get" action="/careers/${ws.slug}" class="filters card" role="search" aria-label="Search jobs">
${textField({ id: 'q', label: 'Keywords', value: c.q, errors, maxlength: MAX_Q, type: 'search', hint: 'Title, skills or words from the description' })}
${textField({ id: 'location', label: 'Location', value: c.location, errors, maxlength: MAX_LOCATION, hint: 'City or state' })}
${selectField({ id: 'type', label: 'Employment type', value: c.type, errors, options: typeOptions })}
<div class="field field-check"><label class="check" for="remote"><input type="checkbox" id="remote" name="remote" value="on"${c.remote ? raw(' checked') : ''}> Remote only</label></div>
<button type="submit">Search</button>
</form>`
}

function pagerLinks(ws: Workspace, c: JobCriteria, r: CareersResults): SafeHtml | '' {
	const pages = Math.max(1, Math.ceil(r.total / PAGE_SIZE))
	if (r.total === 0 || pages === 1) return ''
	const at = (n: number) => `/careers/${ws.slug}${criteriaQuery(c, n)}`
	return html`<nav class="pager" aria-label="Pages"><p>Page ${r.page} of ${pages}</p>
${r.page > 1 ? html`<a href="${at(r.page - 1)}" rel="prev">Previous page</a>` : ''}
${r.page < pages ? html`<a href="${at(r.page + 1)}" rel="next">Next page</a>` : ''}</nav>`
}

function alertForm(ws: Workspace, c: JobCriteria, a: JobListView['alert']): SafeHtml {
	const words = criteriaWords(c)
	return html`<section class="card alerts" aria-labelledby="alerts-title"><h2 id="alerts-title">Get new jobs like this by e-mail</h2>
<p>${words.length ? html`New jobs matching ${words.join(', ')}` : 'Every new job'} at ${ws.name}, at most once a day. We send a link to confirm first; every e-mail has a link to stop them. No account needed.</p>
${a.notice ? html`<div class="notice" role="status"><p>${a.notice}</p></div>` : ''}
<form method="post" action="/careers/${ws.slug}/alerts" class="filters">
<input type="hidden" name="csrf" value="${a.csrf}">
${c.q ? html`<input type="hidden" name="q" value="${c.q}">` : ''}${c.location ? html`<input type="hidden" name="location" value="${c.location}">` : ''}${c.remote ? html`<input type="hidden" name="remote" value="on">` : ''}${c.type ? html`<input type="hidden" name="type" value="${c.type}">` : ''}
${textField({ id: 'alert-email', name: 'email', label: 'Your e-mail address', type: 'email', autocomplete: 'email', value: a.email ?? '', errors: a.errors ?? [], maxlength: 254 })}
<button type="submit">Get job alerts</button>
</form></section>`
}

export function jobListPage(ws: Workspace, view: JobListView): Response {
	const feeds = { indeed: `/careers/${ws.slug}/feeds/indeed.xml`, rss: `/careers/${ws.slug}/feeds/jobs.rss` }
	const { results: r, criteria: c } = view
	const applied = appliedFilters(ws, c)
	const errors = [...view.errors, ...(view.alert.errors ?? []).map((e) => ({ ...e, field: `alert-${e.field}` }))]
	// A refused search was not run: it says so, never "0 jobs match", and offers no alert for it (one would be refused too).
	const refused = view.errors.length > 0
	// A page past the last (an old link, jobs closed since) counts no rows: it says nothing of how many there are.
	const pastTheEnd = r.page > 1 && r.jobs.length === 0
	const notRun = 'This search was not run: correct what is marked above'
	const empty = refused
		? applied.length
			? ''
			: html`<p role="status">${notRun}.</p>`
		: pastTheEnd
			? html`<p>There are no more jobs${hasCriteria(c) ? ' for this search' : ''}. <a href="/careers/${ws.slug}${criteriaQuery(c)}">Back to the first page</a></p>`
			: hasCriteria(c)
				? html`<p>No open jobs match this search. Try fewer filters, or <a href="/careers/${ws.slug}">see all open jobs</a>.</p>`
				: html`<p>There are no open jobs right now. Please check back soon.</p>`
	return page(
		{
			title: hasCriteria(c) ? `Jobs at ${ws.name}: ${criteriaWords(c).join(', ')}` : `Jobs at ${ws.name}`,
			status: view.errors.length ? 400 : view.alert.errors?.length ? 422 : 200,
			hasErrors: errors.length > 0,
			head: html`<link rel="alternate" type="application/rss+xml" title="Jobs at ${ws.name} (RSS)" href="${feeds.rss}">
<link rel="alternate" type="application/xml" title="Jobs at ${ws.name} (Indeed XML feed)" href="${feeds.indeed}">`,
		},
		html`${errorSummary(errors)}<h1>Open jobs at ${ws.name}</h1>
${searchForm(ws, c, view.errors)}
<section class="card" id="results" aria-label="Results">
${
	applied.length
		? html`<div class="applied"><p role="status">${refused ? notRun : pastTheEnd ? `Page ${r.page} is past the last page` : html`${plural(r.total, 'job')} match${r.total === 1 ? 'es' : ''}${r.page > 1 ? html` (page ${r.page})` : ''}`}. Filters applied:</p>
<ul class="applied-filters">${applied.map(([label, href]) => html`<li><span title="${label}">${label}</span> <a href="${href}" aria-label="Remove filter ${label}">Remove</a></li>`)}</ul>
<p><a href="/careers/${ws.slug}">Clear all filters</a></p></div>`
		: ''
}
${r.jobs.length === 0 ? empty : ''}
<ul class="jobs">${r.jobs.map(
			(j) => html`<li><a href="${jobPath(ws, j)}"><strong>${j.title}</strong></a>
<span class="meta">${[j.location, j.schedule, j.contractType].filter(Boolean).join(' · ')}</span></li>`,
		)}</ul>
${pagerLinks(ws, c, r)}</section>
${refused ? '' : alertForm(ws, c, view.alert)}`,
	)
}

/** The address as far as the location tells it; null when it tells nothing. */
function postalAddress(place: JobPlace): Record<string, string> | null {
	if (!place.locality && !place.region && !place.country) return null
	const address: Record<string, string> = { '@type': 'PostalAddress' }
	if (place.locality) address.addressLocality = place.locality
	if (place.region) address.addressRegion = place.region
	if (place.postalCode) address.postalCode = place.postalCode
	if (place.country) address.addressCountry = place.country
	return address
}

/**
 * The country a remote job's applicants must be in (Google requires one for TELECOMMUTE): the one the
 * location names; for a location that names no place at all ("Remote"), the United States, the market
 * of the US staffing firms Benchline serves (their pay is in dollars, under US pay-transparency rules).
 * A place that names no country ("Remote - Toronto") is not guessed at, nor an area of several ("EU").
 */
const applicantsCountry = (place: JobPlace): string | null => place.country ?? (!place.locality && !place.region && !place.area ? 'US' : null)

/**
 * Where the job is, in Google's terms. A remote job is TELECOMMUTE with the country its applicants
 * must be in. A job with a place in a known country has it as `jobLocation` (Google: "you must include
 * the addressCountry property"; a town alone, "Springfield", could be in any); a remote job's country
 * alone is where applicants live, not a workplace. Empty when nothing is known.
 */
function whereProperties(place: JobPlace): Record<string, unknown> {
	const where: Record<string, unknown> = {}
	const country = place.fullyRemote ? applicantsCountry(place) : null
	const telecommute = country !== null
	if (telecommute) {
		where.jobLocationType = 'TELECOMMUTE'
		where.applicantLocationRequirements = { '@type': 'Country', name: countryName(country) }
	}
	const address = postalAddress(place)
	if (address && place.country && (place.locality || place.region || !telecommute)) where.jobLocation = { '@type': 'Place', address }
	return where
}

/** Google's required properties: a posting without one of them is invalid, so it is not sent at all. */
function meetsGoogleRequirements(d: Record<string, unknown>): boolean {
	const where = d.jobLocation !== undefined || (d.jobLocationType === 'TELECOMMUTE' && d.applicantLocationRequirements !== undefined)
	return Boolean(d.title && d.description && d.datePosted && d.hiringOrganization && where)
}

/**
 * schema.org JobPosting by Google's job-posting guidelines, from the facts the page shows
 * (`jobFacts`): the required properties (title, description, datePosted, hiringOrganization,
 * jobLocation or TELECOMMUTE with applicantLocationRequirements) and the recommended ones the job
 * has (employmentType, baseSalary with its unit, identifier, directApply). Null when a required
 * one cannot be given (no location known): an invalid posting helps no one. Jobs have no end date,
 * so no validThrough: a closed job answers 410 instead.
 */
export function jobPosting(ws: Workspace, job: PublicJob, url: string, facts: JobFacts = jobFacts(job)): Record<string, unknown> | null {
	const data: Record<string, unknown> = {
		'@context': 'https://schema.org/',
		'@type': 'JobPosting',
		title: job.title,
		description: postingDescription(job),
		datePosted: facts.posted.toISOString(),
		identifier: { '@type': 'PropertyValue', name: ws.name, value: job.id },
		hiringOrganization: { '@type': 'Organization', name: ws.name, sameAs: `${new URL(url).origin}/careers/${ws.slug}` },
		url,
		directApply: true,
		...whereProperties(facts.place),
	}
	if (facts.employmentType) data.employmentType = facts.employmentType
	if (facts.minYears !== null) data.experienceRequirements = { '@type': 'OccupationalExperienceRequirements', monthsOfExperience: facts.minYears * 12 }
	if (job.mustHave?.length) data.skills = job.mustHave.join(', ')
	if (facts.pay) {
		data.baseSalary = {
			'@type': 'MonetaryAmount',
			currency: 'USD',
			value: { '@type': 'QuantitativeValue', ...salaryBounds(facts.pay), unitText: facts.pay.unit },
		}
	}
	return meetsGoogleRequirements(data) ? data : null
}

/**
 * The pay's bounds as the page words them (`payText`, `payBounds`: above 0, lowest first): "from
 * $95,000" is a minValue alone, "up to" a maxValue alone; `value` would say the salary is exactly that.
 */
function salaryBounds({ min, max }: { min: number | null; max: number | null }): { minValue?: number; maxValue?: number } {
	return { ...(min !== null ? { minValue: min } : {}), ...(max !== null ? { maxValue: max } : {}) }
}

/** The JobPosting as a data block, or nothing; `<` is escaped so the block can never close its script element. */
export function jobPostingJsonLd(ws: Workspace, job: PublicJob, url: string, facts: JobFacts = jobFacts(job)): SafeHtml | '' {
	const data = jobPosting(ws, job, url, facts)
	return data ? raw(`<script type="application/ld+json">${scriptJson(data)}</script>`) : ''
}

const VISA_TEXT: Record<string, string> = {
	Any: 'Any work authorization',
	'No Sponsorship': 'No visa sponsorship',
	USC: 'US citizens only',
	'USC/GC': 'US citizens and green-card holders',
}

/** Plain-text descriptions (no block markup) keep their line breaks. */
/**
 * A posting's description as HTML, for its JSON-LD and the feeds: the description, else the summary
 * (plain text: escaped, its paragraphs and line breaks kept as the job page shows them), else the title.
 */
export const postingDescription = (job: { description: string | null; summary: string | null; title: string }): string =>
	job.description ? descriptionHtml(job.description).value : job.summary ? descriptionHtml(escapeHtml(job.summary)).value : escapeHtml(job.title)

export function descriptionHtml(description: string): SafeHtml {
	if (/<(p|ul|ol|h[1-6]|br)\b/i.test(description)) return raw(description)
	return raw(
		description
			// Stored with line feeds (modules/jobs/description.ts); rows stored before may hold CRLF.
			.replace(/\r\n?/g, '\n')
			.split(/\n{2,}/)
			.map((para) => `<p>${para.replace(/\n/g, '<br>')}</p>`)
			.join(''),
	)
}

const POSTED = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })

/**
 * The pay's words as `payText` gives them, "per year" kept on one line (a phone's narrow column split
 * it). A range may still wrap between its amounts: kept whole, a large one ran off a 390 px screen.
 */
function payLine(text: string): SafeHtml {
	const [, amounts, per] = /^(.*?)(?: (per \w+))?$/s.exec(text)!
	return per ? html`${amounts} <span class="nowrap">${per}</span>` : html`${amounts}`
}

/** Letters only, in lower case: "Fulltime" and "Full-time" are the same words. */
const sameWords = (a: string | null, b: string | null) =>
	a !== null && b !== null && a.replace(/[^a-z]/gi, '').toLowerCase() === b.replace(/[^a-z]/gi, '').toLowerCase()

/** The facts as the page shows them: each one the JobPosting data or a feed carries, in words. */
function shownFacts(f: JobFacts): [string, string | SafeHtml | null][] {
	const employment = f.employmentType ? EMPLOYMENT_TYPE_LABELS[f.employmentType] : null
	return [
		['Location', f.location],
		['Pay', f.pay ? payLine(f.pay.text) : null],
		['Employment type', employment],
		['Schedule', f.schedule],
		// The vendor's own word for it, when it says more than the employment type ("C2C", "W2 hourly").
		['Contract type', sameWords(f.contractType, employment) ? null : f.contractType],
		['Work authorization', f.visa ? (VISA_TEXT[f.visa] ?? f.visa) : null],
		['Minimum experience', f.minYears !== null ? `${f.minYears} year${f.minYears === 1 ? '' : 's'}` : null],
		['Department', f.department],
		['Posted', POSTED.format(f.posted)],
	]
}

/** `errors`: a refused application's problems, summarised at the top of the page (focused on load). */
export function jobPage(ws: Workspace, job: PublicJob, url: string, apply: SafeHtml | null = null, errors: readonly FieldError[] = []): Response {
	const facts = jobFacts(job)
	return page(
		{
			title: `${job.title} · ${ws.name}`,
			hasErrors: errors.length > 0,
			head: html`<link rel="canonical" href="${url}">${jobPostingJsonLd(ws, job, url, facts)}`,
		},
		html`${errorSummary(errors.map((e) => ({ field: `apply-${e.field}`, message: e.message })))}<article class="card job">
<p class="crumbs"><a href="/careers/${ws.slug}">All jobs at ${ws.name}</a></p>
<h1>${job.title}</h1>
${job.summary ? html`<p class="summary lines">${job.summary}</p>` : ''}
<dl class="facts">${shownFacts(facts)
			.filter(([, v]) => v)
			.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
${job.description ? html`<section class="description"><h2>About the role</h2>${descriptionHtml(job.description)}</section>` : ''}
${job.mustHave?.length ? html`<section><h2>Must have</h2><ul>${job.mustHave.map((m) => html`<li>${m}</li>`)}</ul></section>` : ''}
${job.niceToHave?.length ? html`<section><h2>Nice to have</h2><ul>${job.niceToHave.map((m) => html`<li>${m}</li>`)}</ul></section>` : ''}
${apply ?? ''}
</article>`,
	)
}

export function closedJobPage(ws: Workspace, job: PublicJob): Response {
	return page(
		{ title: 'Job closed', status: 410 },
		html`<section class="card"><h1>This job is no longer open</h1><p>${job.title} has been filled or closed.</p><p><a href="/careers/${ws.slug}">See the open jobs at ${ws.name}</a></p></section>`,
	)
}
