/**
 * The activity line of a change of an endpoint says what changed, and where its events go when the
 * address moved: "… changed the webhook endpoint <url>, changing its address from https://a… to
 * https://b…, its event types". The firm reads where its data is sent from the log, whoever changed it.
 */
import type { ActivityChange } from '../../core/module.ts'

const WORDS: Record<string, string> = { url: 'its address', events: 'its event types', description: 'its description' }

function changeWords(detail: Record<string, unknown> | null): string | null {
	const changed = Array.isArray(detail?.changed) ? detail.changed.filter((f): f is string => typeof f === 'string' && f in WORDS) : []
	if (!changed.length) return null
	const moved = typeof detail?.from === 'string' && typeof detail?.to === 'string' ? ` from ${detail.from} to ${detail.to}` : ''
	return `changing ${changed.map((f) => (f === 'url' ? `${WORDS[f]}${moved}` : WORDS[f])).join(', ')}`
}

export const endpointChangeWords: ActivityChange = {
	action: 'webhook.endpoint_changed',
	words: async (_deps, _workspaceId, details) => details.map(changeWords),
}
