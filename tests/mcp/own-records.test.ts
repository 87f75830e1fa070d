/**
 * Records the calling person made themselves say `writtenBy: "self"` in every tool result, and
 * `"colleague"` to anyone else of the workspace: their own name wherever it names them (owner,
 * hiring team, added by, invited by, scorecard author, to-do creator and assignee, submitted by,
 * the calendar's person), a job they created (its title, label, department, place, texts, items,
 * wherever another result names it), the scorecard attributes they set or that come from their
 * job's must-haves (their scorecards, the AI interview's ratings), their notes and to-dos.
 *
 * One person ("me") writes every record through the services and tools a person uses, each text
 * carrying the marker; then both people call every tool (its `testCalls`, on these records) and
 * every labelled text holding the marker is checked, by the kind of result it is in.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { ToolDef, ToolTestRecords } from '../../core/module.ts'
import { checkValue } from '../../core/schema-check.ts'
import { personActor } from '../../modules/auth/index.ts'
import { users } from '../../modules/auth/table.ts'
import { addNote } from '../../modules/candidates/notes.ts'
import { candidates } from '../../modules/candidates/table.ts'
import { inviteToInterview } from '../../modules/interviews/index.ts'
import { interviewQuestions, interviews } from '../../modules/interviews/table.ts'
import { saveScorecard, scorecardForm, setAttributes } from '../../modules/scorecards/service.ts'
import { addTodo } from '../../modules/todos/service.ts'
import { newPerson, newWorkspace, testDeps } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(300_000)

/** What every text "me" wrote carries (and a word search finds). */
const MARK = 'Zelfmark'

async function world() {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const [mine, theirs] = [await newPerson(ws, 'owner', {}, deps), await newPerson(ws, 'owner', {}, deps)]
	await deps.db
		.update(users)
		.set({ name: `Ana ${MARK}` })
		.where(eq(users.id, mine.userId))
	const me = await personActor(deps, ws.slug, mine.email)
	const colleague = await personActor(deps, ws.slug, theirs.email)
	const tool = (name: string) => deps.registry.tools.find((t) => t.name === name)! as ToolDef<any>
	const run = async (actor: Actor, name: string, args: Record<string, unknown>) => {
		const checked = checkValue<Record<string, unknown>>(tool(name).params, args, { unknown: 'reject' })
		if (checked.errors.length) throw new Error(`${name}: ${JSON.stringify(checked.errors)}`)
		return (await tool(name).run({ deps, actor }, checked.value as never)) as any
	}

	// A job I create, with every text field, on whose hiring team I am.
	const { job } = await run(me, 'create_job', {
		title: `${MARK} Platform Engineer`,
		department: `${MARK} Cloud`,
		location: `${MARK} City`,
		employment: `${MARK} contract`,
		pitch: `${MARK} pitch`,
		description: `<p>${MARK} description</p>`,
		requirements: [`${MARK} Kubernetes`, `${MARK} Go`],
		niceToHave: [`${MARK} Rust`],
	})
	await run(me, 'set_job_status', { jobId: job.id, status: 'Open' })
	// A candidate I own, applying to my job; a second application scored on the job's must-haves (no own attributes).
	const candidateId = await newCandidate(ws, { name: 'Cara Candidate' }, deps)
	await deps.db.update(candidates).set({ ownerUserId: me.userId }).where(eq(candidates.id, candidateId))
	const applicationId = await newApplication(ws, candidateId, job.id, {}, deps)
	await addNote(deps, me, { candidateId, text: `${MARK} note`, private: false })
	const score = async (appId: string) => {
		const form = await scorecardForm(deps, me, appId)
		await saveScorecard(deps, me, appId, {
			attributes: form.attributes.attributes,
			ratings: form.attributes.attributes.map(() => '4'),
			recommendation: 'yes',
			notes: `${MARK} scorecard notes`,
		})
	}
	await score(applicationId)
	// The AI interview I send on the must-haves of my job, completed.
	const interview = await inviteToInterview(deps, me, { applicationId })
	await deps.db
		.update(interviews)
		.set({ status: 'completed', completedAt: new Date(), overallScore: 80, verdict: 'recommended' })
		.where(eq(interviews.id, interview.id))
	await deps.db.update(interviewQuestions).set({ score: 80 }).where(eq(interviewQuestions.interviewId, interview.id))
	// Attributes I set for my job's scorecards, and a scorecard on them.
	const other = await newCandidate(ws, { name: 'Otto Other' }, deps)
	const otherApplication = await newApplication(ws, other, job.id, {}, deps)
	await setAttributes(deps, me, job.id, [`${MARK} attribute`])
	await score(otherApplication)
	await run(me, 'add_to_bench', { candidateId, roleFamily: 'java', jobId: job.id })
	await addTodo(deps, me, { title: `${MARK} to-do`, notes: `${MARK} to-do notes`, dueAt: new Date(Date.now() + 3_600_000), candidateId })
	// A submission I make to a vendor's job (the vendor asks for no documents).
	const vendorId = await newSubmissionVendor(ws, { rules: { always: [], byWorkAuthorization: {} } }, deps)
	const vendorJob = await newVendorJob(ws, { vendorId, title: 'Vendor Java Developer' }, deps)
	const vendorApplication = await newApplication(ws, candidateId, vendorJob, {}, deps)
	await run(me, 'submit_to_vendor', { applicationId: vendorApplication, documents: [], note: `${MARK} submission note` })

	const seen: Record<string, string[]> = {
		job: [job.id, vendorJob],
		candidate: [candidateId, other],
		application: [applicationId, otherApplication, vendorApplication],
		vendor: [vendorId],
		thread: [],
		interview: [interview.id],
	}
	const made: Record<string, string> = { job: job.id, candidate: candidateId, application: applicationId }
	const records: ToolTestRecords = { word: MARK, seen: (kind) => seen[kind] ?? [], made: (kind) => made[kind]! }
	return { deps, me, colleague, records }
}

/** Every labelled text holding the marker in a result: where it is (array indexes dropped) and who it says wrote it. */
function labelled(value: unknown, path: string, out: { path: string; writtenBy: string }[]) {
	if (Array.isArray(value)) for (const v of value) labelled(v, `${path}[]`, out)
	else if (value && typeof value === 'object') {
		const o = value as Record<string, unknown>
		if (o.untrusted === true) {
			if (String(o.text).includes(MARK)) out.push({ path, writtenBy: String(o.writtenBy) })
			return
		}
		for (const [k, v] of Object.entries(o)) labelled(v, path ? `${path}.${k}` : k, out)
	}
}

test('what I wrote says "self" in every tool result I get, and "colleague" in a colleague’s, by the kind of result', async () => {
	const { deps, me, colleague, records } = await world()
	const read = async (actor: Actor) => {
		const found: { path: string; writtenBy: string }[] = []
		// Read tools only: a write would change what the next call reads.
		for (const tool of deps.registry.tools.filter((t) => t.readOnly) as ToolDef<any>[])
			for (const args of tool.testCalls(records)) {
				const checked = checkValue<Record<string, unknown>>(tool.params, args, { unknown: 'reject' })
				try {
					labelled(await tool.run({ deps, actor }, checked.value as never), tool.name, found)
				} catch {
					// A call these records cannot answer (another kind of record): nothing to label.
				}
			}
		return found
	}
	// The defect is mistaking the reader for someone else of the workspace (or someone else for the
	// reader). A line that joins my words with a candidate's (a conversation's hit: their name, my
	// subject) takes the farther author, as mixed text does: that is not this defect.
	const wrong = (found: { path: string; writtenBy: string }[], unexpected: string) => [
		...new Set(found.filter((f) => f.writtenBy === unexpected).map((f) => `${f.path}: ${f.writtenBy}`)),
	]
	const mine = await read(me)
	const theirs = await read(colleague)
	expect(wrong(mine, 'colleague')).toEqual([])
	expect(wrong(theirs, 'self')).toEqual([])
	// Each kind of result was seen holding my words, labelled `self` to me and `colleague` to the other.
	const paths = (found: { path: string; writtenBy: string }[], label: string) => new Set(found.filter((f) => f.writtenBy === label).map((f) => f.path))
	const [selfPaths, colleaguePaths] = [paths(mine, 'self'), paths(theirs, 'colleague')]
	for (const kind of [
		// My name on records.
		'get_candidate.candidate.owner.name',
		'get_job.job.hiringTeam[].name',
		'list_bench.bench[].addedBy.name',
		'list_interview_results.interviews[].invitedBy.name',
		'get_application.application.scorecards[].by.name',
		'list_todos.todos[].createdBy.name',
		'list_todos.todos[].assignee.name',
		'get_application.application.vendorSubmission.submittedBy',
		'get_calendar.events[].person.name',
		// The job I created, and where other results name it.
		'list_jobs.jobs[].title',
		'get_job.job.requirements[]',
		'get_job.job.description',
		'list_applications.applications[].job.title',
		'get_application.application.resumeCheck.mustHaves[]',
		'search.results[].title',
		// Scorecards I wrote, on my attributes or my job's must-haves; the AI interview's questions on my must-haves.
		'get_application.application.scorecards[].ratings[].attribute',
		'get_application.application.scorecards[].notes',
		'get_interview_result.interview.questions[].competency',
		// My note and to-do; the mail I had sent (a submission) in its conversation.
		'get_candidate.candidate.notes[].body',
		'list_todos.todos[].title',
		'list_inbox_threads.threads[].subject',
	])
		expect({ kind, self: selfPaths.has(kind), colleague: colleaguePaths.has(kind) }).toEqual({ kind, self: true, colleague: true })
})

test('a job’s texts and my name are mine only: a colleague’s job and name say "colleague" to me', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const [mine, theirs] = [await newPerson(ws, 'owner', {}, deps), await newPerson(ws, 'owner', {}, deps)]
	const me = await personActor(deps, ws.slug, mine.email)
	const colleague = await personActor(deps, ws.slug, theirs.email)
	const createJob = deps.registry.tools.find((t) => t.name === 'create_job')! as ToolDef<any>
	const getJob = deps.registry.tools.find((t) => t.name === 'get_job')! as ToolDef<any>
	const { job } = (await createJob.run({ deps, actor: colleague }, { title: 'Their Job', requirements: ['Go'] } as never)) as any
	await deps.database.rows(sql`insert into job_team (job_id, user_id, team_role) values (${job.id}, ${colleague.userId}, 'recruiter') on conflict do nothing`)
	const got = ((await getJob.run({ deps, actor: me }, { jobId: job.id } as never)) as any).job
	expect([got.title.writtenBy, got.requirements[0].writtenBy, ...got.hiringTeam.map((p: any) => p.name.writtenBy)]).toEqual(
		Array(2 + got.hiringTeam.length).fill('colleague'),
	)
	const own = ((await getJob.run({ deps, actor: colleague }, { jobId: job.id } as never)) as any).job
	expect([own.title.writtenBy, own.requirements[0].writtenBy, ...own.hiringTeam.map((p: any) => p.name.writtenBy)]).toEqual(
		Array(2 + own.hiringTeam.length).fill('self'),
	)
})
