/**
 * The trail's writer is the instance's, not a request's: a batch that a request's line started (its
 * timer) or filled is written outside that request, so its log lines carry no request id and its
 * statement's span hangs under no request's trace.
 */
import { expect, test } from 'bun:test'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { currentRequest, withRequest } from '../../core/request-context.ts'
import { newWorkspace, testDeps } from '../../tests/helpers.ts'
import { flushAudit, writeAuditLine } from './writer.ts'

/** The deps with their database watched: the request each write runs in (none: outside any). */
async function watched() {
	const deps = await testDeps()
	const seen: string[] = []
	const database = new Proxy(deps.database, {
		get: (target, prop) =>
			prop === 'run'
				? (...args: Parameters<AppDeps['database']['run']>) => {
						seen.push(currentRequest()?.requestId ?? 'none')
						return target.run(...args)
					}
				: Reflect.get(target, prop),
	})
	return { deps: { ...deps, database } as AppDeps, seen }
}

const line = (workspaceId: string) => ({
	id: newId('aud'),
	workspaceId,
	at: new Date(),
	kind: 'search',
	action: 'context-probe',
	outcome: 'ok',
	actorUserId: null,
	actorName: 'Probe',
	credentialKind: 'pat',
	credentialId: 'pat_probe',
	credentialName: 'probe',
	recordIds: [],
	criteria: null,
	jobId: null,
	address: '127.0.0.1',
})

test('a batch whose timer a request started is written outside that request', async () => {
	const ws = await newWorkspace()
	const { deps, seen } = await watched()
	withRequest({ requestId: 'request-that-wrote-a-line' }, () => writeAuditLine(deps, line(ws.id)))
	for (let i = 0; i < 200 && !seen.length; i++) await Bun.sleep(10)
	expect(seen).toEqual(['none'])
})

test('a batch a request filled is written outside that request', async () => {
	const ws = await newWorkspace()
	const { deps, seen } = await watched()
	for (let i = 0; i < 199; i++) writeAuditLine(deps, line(ws.id))
	withRequest({ requestId: 'request-with-the-200th-line' }, () => writeAuditLine(deps, line(ws.id)))
	await flushAudit(deps)
	expect(seen.length).toBeGreaterThan(0)
	expect(seen).not.toContain('request-with-the-200th-line')
})
