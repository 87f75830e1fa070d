/**
 * What every e-mail and message to a candidate ends with: the firm's footer (kept by the module that
 * contributes `outbox:message-footer`, the templates module), and on marketing-type e-mail (a job
 * alert) the line to unsubscribe. Added here, where everything sent passes, so no flow can forget it:
 * a reply, a document request, an interview invitation and a bulk message all carry it.
 */
import { hmacSha256, safeEqual } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { contributionsTo } from '../../core/registry.ts'
import type { Db } from '../../db/client.ts'
import { messageFooterPort, privacyPagePort } from './port.ts'

const SAFE = /^[A-Za-z0-9_-]+$/
const signature = (secret: Uint8Array, payload: string) => hmacSha256(secret, `unsubscribe|${payload}`).toString('base64url').slice(0, 22)

/** The footer of one channel for the workspace ('' when no module keeps one or the firm set none). */
export async function footerFor(deps: Pick<AppDeps, 'registry' | 'config'>, db: Db, workspaceId: string, channel: 'email' | 'text'): Promise<string> {
	const [footer] = contributionsTo(deps.registry, messageFooterPort)
	if (!footer) return ''
	return (await footer.footerOf(deps, db, workspaceId))[channel].trim()
}

/**
 * The line that tells a candidate where to ask for their data or its erasure ('' when no module
 * keeps such a page): under every e-mail and message to a candidate, whatever sent it.
 */
export async function privacyLineFor(deps: Pick<AppDeps, 'registry' | 'config'>, db: Db, workspaceId: string, channel: 'email' | 'text'): Promise<string> {
	const [page] = contributionsTo(deps.registry, privacyPagePort)
	const url = page ? await page.urlOf(deps, db, workspaceId) : null
	if (!url) return ''
	// A text message is short (its provider cuts it at 1,600 characters): the address says the rest.
	return channel === 'email' ? `Your data: ask for a copy or its erasure at ${url}` : `Your data: ${url}`
}

/** `text` with the footer under it: after the usual signature separator ("-- ") in e-mail, on its own line in a message. */
export function withFooter(text: string, footer: string, channel: 'email' | 'text'): string {
	if (!footer) return text
	return channel === 'email' ? `${text}\n\n-- \n${footer}` : `${text}\n${footer}`
}

/**
 * The address of the unsubscribe page of one recipient: signed with the server secret, so it cannot
 * be made for someone else, and the same in every message (a person may use an old one).
 */
export function unsubscribeUrl(deps: Pick<AppDeps, 'config' | 'secret'>, workspaceId: string, recipient: { type: string; id: string }): string {
	const parts = [workspaceId, recipient.type, recipient.id]
	if (!parts.every((p) => SAFE.test(p))) throw new Error('an unsubscribe address is made of ids')
	const payload = parts.join('~')
	return `${deps.config.baseUrl}/unsubscribe/${payload}.${signature(deps.secret, payload)}`
}

/** The recipient an unsubscribe address was made for; null when it was not made by this server. */
export function unsubscribeTarget(deps: Pick<AppDeps, 'secret'>, token: string): { workspaceId: string; type: string; id: string } | null {
	const dot = token.lastIndexOf('.')
	const payload = token.slice(0, Math.max(0, dot))
	const parts = payload.split('~')
	if (dot <= 0 || token.length > 300 || parts.length !== 3 || !parts.every((p) => SAFE.test(p))) return null
	if (!safeEqual(token.slice(dot + 1), signature(deps.secret, payload))) return null
	return { workspaceId: parts[0]!, type: parts[1]!, id: parts[2]! }
}
