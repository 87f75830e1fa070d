/** The public careers pages: workspace job lists and the job page with schema.org JSON-LD. */
import type { FieldError } from '../../core/errors.ts'
import { escapeHtml, html, page, raw, type SafeHtml } from '../../core/html.ts'
import { errorSummary } from '../../core/ui.ts'
import type { Workspace } from '../auth/index.ts'
import { payUnit, toDate, type PublicJob } from '../jobs/index.ts'
import { employmentType, jobPlace } from './job-facts.ts'

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

export function jobListPage(ws: Workspace, jobs: PublicJob[]): Response {
	const feeds = { indeed: `/careers/${ws.slug}/feeds/indeed.xml`, rss: `/careers/${ws.slug}/feeds/jobs.rss` }
	return page(
		{
			title: `Jobs at ${ws.name}`,
			head: html`<link rel="alternate" type="application/rss+xml" title="Jobs at ${ws.name} (RSS)" href="${feeds.rss}">
<link rel="alternate" type="application/xml" title="Jobs at ${ws.name} (Indeed XML feed)" href="${feeds.indeed}">`,
		},
		html`<section class="card"><h1>Open jobs at ${ws.name}</h1>
${jobs.length === 0 ? html`<p>There are no open jobs right now. Please check back soon.</p>` : ''}
<ul class="jobs">${jobs.map(
			(j) => html`<li><a href="${jobPath(ws, j)}"><strong>${j.title}</strong></a>
<span class="meta">${[j.location, j.schedule, j.contractType].filter(Boolean).join(' · ')}</span></li>`,
		)}</ul></section>`,
	)
}

/**
 * schema.org JobPosting by Google's job-posting guidelines: the required properties (title,
 * description, datePosted, hiringOrganization, jobLocation or TELECOMMUTE with
 * applicantLocationRequirements) and the recommended ones the job has (employmentType, baseSalary
 * with its unit, identifier, directApply). Jobs have no end date, so no validThrough: a closed job
 * answers 410 instead. `<` is escaped so the data block can never close its script element.
 */
export function jobPostingJsonLd(ws: Workspace, job: PublicJob, url: string): SafeHtml {
	const place = jobPlace(job)
	const type = employmentType(job)
	const unit = payUnit(job)
	const data: Record<string, unknown> = {
		'@context': 'https://schema.org/',
		'@type': 'JobPosting',
		title: job.title,
		description: job.description ? descriptionHtml(job.description).value : escapeHtml(job.summary || job.title),
		datePosted: toDate(job.publishedAt ?? job.createdAt).toISOString(),
		identifier: { '@type': 'PropertyValue', name: ws.name, value: job.id },
		hiringOrganization: { '@type': 'Organization', name: ws.name, sameAs: `${new URL(url).origin}/careers/${ws.slug}` },
		url,
		directApply: true,
	}
	if (type) data.employmentType = type
	if (place.locality || place.region) {
		const address: Record<string, string> = { '@type': 'PostalAddress' }
		if (place.locality) address.addressLocality = place.locality
		if (place.region) address.addressRegion = place.region
		if (place.postalCode) address.postalCode = place.postalCode
		if (place.country) address.addressCountry = place.country
		data.jobLocation = { '@type': 'Place', address }
	}
	if (place.fullyRemote) {
		data.jobLocationType = 'TELECOMMUTE'
		data.applicantLocationRequirements = { '@type': 'Country', name: 'USA' }
	}
	if (job.minYears !== null) data.experienceRequirements = { '@type': 'OccupationalExperienceRequirements', monthsOfExperience: job.minYears * 12 }
	if (job.mustHave?.length) data.skills = job.mustHave.join(', ')
	if (unit) {
		const range = job.salaryMin !== null && job.salaryMax !== null
		const value = range ? { minValue: job.salaryMin, maxValue: job.salaryMax } : { value: job.salaryMin ?? job.salaryMax }
		data.baseSalary = { '@type': 'MonetaryAmount', currency: 'USD', value: { '@type': 'QuantitativeValue', ...value, unitText: unit } }
	}
	const json = JSON.stringify(data).replace(/</g, '\\u003c')
	return raw(`<script type="application/ld+json">${json}</script>`)
}

const VISA_TEXT: Record<string, string> = {
	Any: 'Any work authorization',
	'No Sponsorship': 'No visa sponsorship',
	USC: 'US citizens only',
	'USC/GC': 'US citizens and green-card holders',
}

/** Plain-text descriptions (no block markup) keep their line breaks. */
export function descriptionHtml(description: string): SafeHtml {
	if (/<(p|ul|ol|h[1-6]|br)\b/i.test(description)) return raw(description)
	return raw(
		description
			.split(/\n{2,}/)
			.map((para) => `<p>${para.replace(/\n/g, '<br>')}</p>`)
			.join(''),
	)
}

/** `errors`: a refused application's problems, summarised at the top of the page (focused on load). */
export function jobPage(ws: Workspace, job: PublicJob, url: string, apply: SafeHtml | null = null, errors: readonly FieldError[] = []): Response {
	const facts: [string, string | null][] = [
		['Location', job.location],
		['Schedule', job.schedule],
		['Contract type', job.contractType],
		['Work authorization', job.visa ? (VISA_TEXT[job.visa] ?? job.visa) : null],
		['Minimum experience', job.minYears !== null ? `${job.minYears} year${job.minYears === 1 ? '' : 's'}` : null],
		['Department', job.department],
	]
	return page(
		{ title: `${job.title} · ${ws.name}`, hasErrors: errors.length > 0, head: html`<link rel="canonical" href="${url}">${jobPostingJsonLd(ws, job, url)}` },
		html`${errorSummary(errors.map((e) => ({ field: `apply-${e.field}`, message: e.message })))}<article class="card job">
<p class="crumbs"><a href="/careers/${ws.slug}">All jobs at ${ws.name}</a></p>
<h1>${job.title}</h1>
${job.summary ? html`<p class="summary">${job.summary}</p>` : ''}
<dl class="facts">${facts.filter(([, v]) => v).map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
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
