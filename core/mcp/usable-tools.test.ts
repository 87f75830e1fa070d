/**
 * A result shown in a view lists the tools the view calls itself that the person may use
 * (`ViewDef.calls`): by role and grant, and on read-only access only the read tools.
 */
import { expect, test } from 'bun:test'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { personActor } from '../../modules/auth/index.ts'
import { documentViews } from '../../modules/documents/views.ts'
import { buildView } from './apps/views.ts'
import { USABLE_TOOLS_META, withUsableTools } from './handler.ts'

test('a read-only connection is not offered the write a view would ask for; a tool without a view gets no list', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter')).email)
	const view = buildView(documentViews.find((v) => v.name === 'vendor-submission-check')!)
	const answer: Record<string, unknown> = { content: [], structuredContent: {} }
	expect(withUsableTools(deps, answer, view, recruiter)).toEqual({ ...answer, _meta: { [USABLE_TOOLS_META]: ['request_candidate_documents'] } })
	expect(withUsableTools(deps, answer, view, { ...recruiter, readOnly: true })).toEqual({ ...answer, _meta: { [USABLE_TOOLS_META]: [] } })
	expect(withUsableTools(deps, answer, undefined, recruiter)).toBe(answer)
})
