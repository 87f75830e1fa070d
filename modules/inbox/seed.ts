/**
 * Demo conversations: recruiters following up with candidates (rates, availability, work
 * authorization), candidates answering, and questions to vendors about their jobs.
 * Recent replies are unread; older ones read; a few starred.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom, type SeededRandom } from '../../core/seed-random.ts'
import { cleanLine } from '../../core/untrusted.ts'
import { listPeople } from '../auth/index.ts'
import { workspaceApplications } from '../candidates/index.ts'
import { jobLabels, workspaceJobs } from '../jobs/index.ts'
import { vendorBook } from './threads.ts'
import { inboxMessages, inboxStates, inboxThreads } from './table.ts'

const HOUR = 3_600_000

type Line = [dir: 'out' | 'in', text: string]
const CANDIDATE_SCRIPTS: Line[][] = [
	[
		[
			'out',
			'Hi {first},\n\nThanks for applying for the {job} role. Are you free for a quick call this week to go over the client’s requirements and your rate expectations?\n\nBest,\n{me}',
		],
		[
			'in',
			'Hi {me},\n\nYes, Thursday after 2 pm Central works for me. I am looking for {rate}/hr on C2C, a little flexible for a long-term project.\n\nThanks,\n{first}',
		],
		['out', 'Great, I have sent an invite for Thursday at 3 pm. Could you also confirm your work authorization and where you are based?'],
		['in', 'I am on an H-1B (a transfer would be needed) and based in Dallas. Open to hybrid, two or three days a week.'],
	],
	[
		['out', 'Hello {first},\n\nThe client liked your profile for {job}. They would like a video interview early next week. Which times suit you?\n\n{me}'],
		['in', 'Thank you! Monday or Tuesday morning Eastern would be ideal. Should I prepare anything specific?'],
	],
	[
		['out', 'Hi {first}, just checking in: are you still interested in the {job} position? The client is moving quickly.'],
		['in', 'Hi, yes, still very interested. I have another offer pending, so please let me know about next steps by Friday if possible.'],
		['out', 'Understood, I will push the client for feedback today and get back to you.'],
	],
	[
		[
			'out',
			'Hi {first},\n\nCould you send an updated résumé that shows your most recent project? The client asked specifically about your last twelve months.\n\nThanks,\n{me}',
		],
	],
	[
		['out', 'Hi {first}, congratulations: the client would like to move forward with an offer for {job}. Can we talk today about the start date?'],
		['in', 'That is wonderful news, thank you! I can talk any time after 4 pm. I need to give two weeks’ notice.'],
	],
]
// Questions about a vendor's own job: submissions go through the submission flow (and are counted on
// the vendor's page), so the demo's mail claims none.
const VENDOR_SCRIPT: Line[] = [
	[
		'out',
		'Hello,\n\nA question about {job}: is the rate still up to {rate}/hr C2C, and does the client consider H-1B transfers? We have two consultants in mind.\n\nRegards,\n{me}',
	],
	['in', 'Thanks for asking. The rate stands and H-1B transfers are fine. The hiring manager reviews profiles on Tuesdays.'],
	['in', 'Update: the client added a second opening for {job}, with the same requirements.'],
]

interface DemoConversation {
	key: string
	type: 'candidate' | 'vendor'
	candidateId: string | null
	vendorId: string | null
	name: string
	address: string
	subject: string
	lines: Line[]
	vars: Record<string, string>
	start: number
	related: { type: string; id: string }
}

/** A demo conversation's messages, each some hours after the one before it and all before now. */
function demoThread(rnd: SeededRandom, ws: WorkspaceRef, c: DemoConversation, o: { now: number; host: string; from: string }) {
	const { now, host, from } = o
	const threadId = seededId('thr', ws.id, c.key)
	let at = c.start
	let lastInbound: number | null = null
	const messages = c.lines.map(([dir, template], i) => {
		at = Math.min(at + rnd.int(2, 30) * HOUR, now - (c.lines.length - i) * 10 * 60_000)
		if (dir === 'in') lastInbound = at
		const text = template.replace(/\{(\w+)\}/g, (_, k: string) => c.vars[k] ?? '')
		const id = seededId('msg', ws.id, `${c.key}:${i}`)
		return {
			id,
			workspaceId: ws.id,
			threadId,
			direction: dir,
			channel: 'email',
			fromAddress: dir === 'out' ? from : c.address,
			// The demo's replies come from the person's own address: theirs.
			writtenBy: dir === 'in' ? c.type : null,
			toAddress: dir === 'out' ? c.address : from,
			subject: i === 0 ? c.subject : `Re: ${c.subject}`,
			text,
			messageId: `<${id}@${dir === 'out' ? host : 'mail.example.com'}>`,
			relatedType: dir === 'out' ? c.related.type : null,
			relatedId: dir === 'out' ? c.related.id : null,
			at: new Date(at),
		}
	})
	return { c, threadId, messages, lastInbound: lastInbound as number | null }
}

/** Stores a demo conversation once, read (or starred) for some of its readers; `unread` stays unread for everyone. */
async function storeDemoThread(
	deps: AppDeps,
	rnd: SeededRandom,
	ws: WorkspaceRef,
	{ c, threadId, messages, lastInbound }: ReturnType<typeof demoThread>,
	{ readers, unread, now }: { readers: { userId: string }[]; unread: string | undefined; now: number },
) {
	const last = messages[messages.length - 1]!
	const inserted = await deps.db
		.insert(inboxThreads)
		.values({
			id: threadId,
			workspaceId: ws.id,
			counterpartKey: c.key,
			counterpartType: c.type,
			candidateId: c.candidateId,
			vendorId: c.vendorId,
			counterpartName: c.name,
			counterpartAddress: c.address,
			subject: c.subject,
			messageCount: messages.length,
			lastMessageAt: last.at,
			lastInboundAt: lastInbound ? new Date(lastInbound) : null,
			snippet: cleanLine(last.text, 160),
			lastMessageDirection: last.direction,
			snippetBy: last.writtenBy ?? 'colleague',
			createdAt: new Date(c.start),
		})
		.onConflictDoNothing()
		.returning({ id: inboxThreads.id })
	if (!inserted.length) return
	await deps.db.insert(inboxMessages).values(messages).onConflictDoNothing()
	for (const p of readers) {
		const read = unread !== threadId && (lastInbound === null || now - lastInbound > 3 * 24 * HOUR || rnd.chance(0.3))
		const starred = rnd.chance(0.12)
		if (read || starred)
			await deps.db
				.insert(inboxStates)
				.values({ threadId, userId: p.userId, readAt: read ? new Date(Math.min(now, last.at.getTime() + HOUR)) : null, starred })
				.onConflictDoNothing()
	}
}

export async function seedInbox(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const rnd = seededRandom(`inbox:${ws.id}`)
	const readers = (await listPeople(deps.db, ws.id)).filter((p) => ['owner', 'admin', 'recruiter'].includes(p.role))
	const me = readers[0]?.name.split(' ')[0] ?? 'The recruiting team'
	const apps = (await workspaceApplications(deps, ws.id)).filter((a) => a.stageKey !== 'applied')
	if (!apps.length) return
	// Only the words are used (no reader): the demo's messages quote the titles.
	const titles = await jobLabels(deps, { workspaceId: ws.id }, [...new Set(apps.map((a) => a.jobId))])
	const host = new URL(deps.config.baseUrl).hostname
	const from = deps.config.mailFrom
	const now = Date.now()
	const seen = new Set<string>()
	const conversations: DemoConversation[] = []
	for (const app of rnd.sample(apps, Math.min(40, apps.length))) {
		if (seen.has(app.candidateId) || conversations.length >= 24) continue
		seen.add(app.candidateId)
		const job = titles.get(app.jobId)?.text ?? 'open'
		conversations.push({
			key: `candidate:${app.candidateId}`,
			type: 'candidate',
			candidateId: app.candidateId,
			vendorId: null,
			name: app.candidate.name,
			address: app.candidate.email.toLowerCase(),
			subject: `${job}: next steps`,
			lines: rnd.pick(CANDIDATE_SCRIPTS),
			vars: { first: app.candidate.name.split(' ')[0]!, job, me, rate: `$${rnd.int(55, 95)}` },
			start: now - rnd.int(1, 20) * 24 * HOUR - rnd.int(0, 8) * HOUR,
			related: { type: 'application', id: app.id },
		})
	}
	const vendors = [
		...new Map([...(await vendorBook(deps, ws.id)).entries()].flatMap(([address, at]) => at.map((v) => [v.id, { ...v, address }] as const))).values(),
	]
	const openJobs = (await workspaceJobs(deps, ws.id)).filter((j) => j.status === 'Open' && j.vendorId)
	const vendorJobTitles = await jobLabels(
		deps,
		{ workspaceId: ws.id },
		openJobs.map((j) => j.id),
	)
	for (const v of vendors.slice(0, 5)) {
		const own = openJobs.filter((j) => j.vendorId === v.id)
		if (!own.length) continue
		const job = vendorJobTitles.get(rnd.pick(own).id)?.text ?? 'your role'
		conversations.push({
			key: `vendor:${v.id}`,
			type: 'vendor',
			candidateId: null,
			vendorId: v.id,
			name: v.name,
			address: v.address,
			subject: `Question: ${job}`,
			lines: VENDOR_SCRIPT.slice(0, rnd.int(1, 3)),
			vars: { job, me, rate: `$${rnd.int(60, 90)}` },
			start: now - rnd.int(1, 15) * 24 * HOUR,
			related: { type: 'vendor', id: v.id },
		})
	}

	const built = conversations.map((c) => demoThread(rnd, ws, c, { now, host, from }))
	// The conversation whose counterpart wrote last stays unread for everyone: a demo inbox always
	// has something new in it, whatever the random draws.
	const newest = built.reduce<(typeof built)[number] | null>(
		(best, b) => (b.lastInbound !== null && (!best || b.lastInbound > best.lastInbound!) ? b : best),
		null,
	)
	for (const thread of built) await storeDemoThread(deps, rnd, ws, thread, { readers, unread: newest?.threadId, now })
}
