/**
 * Writing the trail: tool calls (as the MCP door reports them), portal views of a candidate's, an
 * application's or a document's page, and searches of the candidate database. Every line goes
 * through the write-behind buffer (writer.ts): recording never waits on the database.
 */
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import type { RecordSearch, ToolCallOutcome, ToolCallReport } from '../../core/module.ts'
import { writeAuditLine } from './writer.ts'

/** The record kinds whose pages are recorded when viewed: `candidate.viewed`, `application.viewed`, `document.viewed`. */
export type ViewedRecord = 'candidate' | 'application' | 'document'

/** At most this many record ids are kept per line (a list tool returns at most 100 rows). */
const MAX_IDS = 500
const MAX_ID_LENGTH = 64

type Deps = Pick<AppDeps, 'database' | 'log' | 'config' | 'now'>

function write(
	deps: Deps,
	actor: Actor,
	address: string,
	line: { kind: string; action: string; outcome: ToolCallOutcome; recordIds: string[]; search?: RecordSearch | null },
) {
	writeAuditLine(deps, {
		id: newId('aud'),
		workspaceId: actor.workspaceId,
		at: deps.now(),
		kind: line.kind,
		action: line.action,
		outcome: line.outcome,
		actorUserId: actor.userId,
		actorName: actor.name,
		credentialKind: actor.credential.kind,
		credentialId: actor.credential.id,
		credentialName: actor.credential.name,
		recordIds: line.recordIds,
		criteria: line.search ? { ...line.search.criteria } : null,
		jobId: line.search?.jobId ?? null,
		address,
	})
}

/**
 * The record ids a result holds: every string under a key named `id` or ending in `Id`, anywhere in
 * it (a list's rows, a record and the records it points at), each once, in the order met. Texts
 * people wrote (the `untrusted` envelopes, most of a result's objects) hold no ids: not walked.
 */
export function recordIdsIn(value: unknown): string[] {
	const ids = new Set<string>()
	const walk = (node: unknown, key: string | undefined) => {
		if (ids.size >= MAX_IDS) return
		if (typeof node === 'string') {
			if (key && (key === 'id' || key.endsWith('Id')) && node.length > 0 && node.length <= MAX_ID_LENGTH) ids.add(node)
		} else if (Array.isArray(node)) for (const item of node) walk(item, key)
		else if (node && typeof node === 'object' && (node as { untrusted?: unknown }).untrusted !== true)
			for (const k in node) if (Object.hasOwn(node, k)) walk((node as Record<string, unknown>)[k], k)
	}
	walk(value, undefined)
	return [...ids]
}

/** The audit module's `observeToolCall`: one line per call, and one more when the call searched the candidate database. */
export function recordToolCall(deps: AppDeps, report: ToolCallReport) {
	if (report.actor.role === 'vendor') return
	const recordIds = report.outcome === 'ok' ? recordIdsIn(report.result) : []
	write(deps, report.actor, report.address, { kind: 'tool_call', action: report.tool, outcome: report.outcome, recordIds })
	if (report.search)
		write(deps, report.actor, report.address, { kind: 'search', action: 'candidates.searched', outcome: 'ok', recordIds, search: report.search })
}

/** A portal page showed (or refused to show) a record to this person. */
export function recordView(deps: Deps, request: Request, actor: Actor, record: ViewedRecord, id: string, outcome: ToolCallOutcome = 'ok') {
	write(deps, actor, clientAddress(deps.config, request), { kind: 'view', action: `${record}.viewed`, outcome, recordIds: [id.slice(0, MAX_ID_LENGTH)] })
}

/** A portal search of the candidate database (41 CFR 60-1.12): its criteria, the job it was for, and the candidates it showed. */
export function recordSearch(deps: Deps, request: Request, actor: Actor, search: RecordSearch, shown: unknown) {
	write(deps, actor, clientAddress(deps.config, request), {
		kind: 'search',
		action: 'candidates.searched',
		outcome: 'ok',
		recordIds: recordIdsIn(shown),
		search,
	})
}

/**
 * Data about a person handed out of the portal or erased (`candidate.exported`, `candidate.erased`):
 * who, through which door, and the records. `address` is the client's (the CLI's: `cli`).
 */
export function recordDataAccess(deps: Deps, actor: Actor, address: string, action: string, recordIds: readonly string[]) {
	write(deps, actor, address, { kind: 'data', action, outcome: 'ok', recordIds: recordIds.slice(0, MAX_IDS).map((id) => id.slice(0, MAX_ID_LENGTH)) })
}

/**
 * Runs a page or file that shows a record and records the view: `ok` when it was shown, `refused`
 * when it was out of the person's reach (the page's own 404 or 403 still answers).
 */
export async function viewed<T>(deps: Deps, request: Request, actor: Actor, record: ViewedRecord, id: string, show: () => Promise<T>): Promise<T> {
	try {
		const shown = await show()
		recordView(deps, request, actor, record, id)
		return shown
	} catch (error) {
		const code = (error as { code?: string } | null)?.code
		if (code === 'NOT_FOUND' || code === 'FORBIDDEN') recordView(deps, request, actor, record, id, 'refused')
		throw error
	}
}
