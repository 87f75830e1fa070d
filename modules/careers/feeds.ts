/**
 * The careers feeds of a workspace, as text chunks: the Indeed XML job feed and RSS 2.0. Each job is
 * one chunk, written from one page of rows at a time (the caller streams them).
 */
import type { Workspace } from '../auth/index.ts'
import { jobUrl, toDate, type JobRow } from '../jobs/index.ts'
import { indeedJobType, jobFacts } from './job-facts.ts'
import { shownJob } from './lookup.ts'
import { postingDescription } from './pages.ts'
import { cdata, element, xmlEscape } from './xml.ts'

export interface FeedContext {
	baseUrl: string
	ws: Workspace
	/** The feed's Last-Modified: the latest change to the workspace's jobs. */
	built: Date
}

const careersUrl = (c: FeedContext) => `${c.baseUrl}/careers/${c.ws.slug}`

export async function* indeedFeed(c: FeedContext, pages: AsyncIterable<JobRow[]>): AsyncGenerator<string> {
	yield `<?xml version="1.0" encoding="UTF-8"?>
<source>
${element('publisher', c.ws.name)}
${element('publisherurl', careersUrl(c))}
${element('lastBuildDate', c.built.toUTCString())}
`
	for await (const rows of pages) yield rows.map((row) => indeedJob(c, shownJob(row))).join('')
	yield '</source>\n'
}

/** The job's facts (`jobFacts`, as its page shows them) in Indeed's elements. */
function indeedJob(c: FeedContext, job: JobRow): string {
	const facts = jobFacts(job)
	const { place } = facts
	const parts = [
		element('title', job.title),
		element('date', facts.posted.toUTCString()),
		element('referencenumber', job.id),
		element('url', jobUrl(c.baseUrl, c.ws.slug, job.slug)),
		element('company', c.ws.name),
		element('city', place.locality),
		element('state', place.region),
		element('country', place.country),
		element('postalcode', place.postalCode),
		`<description>${cdata(postingDescription(job))}</description>`,
		element('salary', facts.pay?.text),
		element('jobtype', indeedJobType(facts.employmentType)),
		element('category', facts.department),
		element('experience', facts.minYears !== null ? `${facts.minYears}+ years` : null),
		element('remotetype', place.fullyRemote ? 'Fully remote' : place.hybrid ? 'Hybrid remote' : null),
	]
	return `<job>\n${parts.filter(Boolean).join('\n')}\n</job>\n`
}

export async function* rssFeed(c: FeedContext, pages: AsyncIterable<JobRow[]>): AsyncGenerator<string> {
	const self = `${careersUrl(c)}/feeds/jobs.rss`
	yield `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
${element('title', `Jobs at ${c.ws.name}`)}
${element('link', careersUrl(c))}
${element('description', `Open jobs at ${c.ws.name}, newest first.`)}
<atom:link href="${xmlEscape(self)}" rel="self" type="application/rss+xml"/>
${element('lastBuildDate', c.built.toUTCString())}
`
	for await (const rows of pages) yield rows.map((row) => rssItem(c, shownJob(row))).join('')
	yield '</channel>\n</rss>\n'
}

function rssItem(c: FeedContext, job: JobRow): string {
	const url = jobUrl(c.baseUrl, c.ws.slug, job.slug)
	const parts = [
		element('title', job.title),
		element('link', url),
		`<guid isPermaLink="true">${xmlEscape(url)}</guid>`,
		element('pubDate', toDate(job.publishedAt ?? job.createdAt).toUTCString()),
		element('category', job.department),
		// The description is HTML, escaped once more as RSS 2.0 asks.
		element('description', postingDescription(job)),
	]
	return `<item>\n${parts.filter(Boolean).join('\n')}\n</item>\n`
}
