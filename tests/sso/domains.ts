/**
 * Verifying a single sign-on domain as an owner does: read the TXT record the settings page shows
 * for it, publish it on the test DNS server (tests/sso/dns.ts), press **Verify domain**.
 */
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { ssoDomains, users } from '../../modules/auth/table.ts'
import { newPerson, newWorkspace, unique } from '../helpers.ts'
import type { PortalClient } from '../portal.ts'
import type { TestDns } from './dns.ts'

/**
 * A domain `ws` verified for its single sign-on, and in it the address of an admin of another
 * workspace (a shared account the workspace's SCIM may attach, whose name it may not change).
 */
export async function sharedAccountInDomainOf(deps: AppDeps, ws: { id: string }) {
	const own = `${unique('d')}.example.test`
	await deps.db.insert(ssoDomains).values({ domain: own, workspaceId: ws.id })
	const shared = await newPerson(await newWorkspace(), 'admin')
	const address = `${unique('m')}@${own}`
	await deps.db.update(users).set({ email: address }).where(eq(users.id, shared.userId))
	return { own, shared, address }
}

/** The TXT record (name, value) `/settings/sso` shows for `domain`, or null when it shows none. */
export function recordShown(pageHtml: string, domain: string): { name: string; value: string } | null {
	for (const block of pageHtml.split('<div class="stack" id="record-').slice(1)) {
		const text = block.replace(/<[^>]+>/g, '')
		if (/DNS record for (\S+)/.exec(text)?.[1] !== domain) continue
		const name = /_benchline-challenge\.\S+/.exec(text)?.[0]
		const value = /benchline-domain-verification=[a-z0-9]+/.exec(text)?.[0]
		return name && value ? { name: name.trim(), value } : null
	}
	return null
}

/** Publishes the domain's record and presses Verify domain on the owner's page; returns the answer. */
export async function verifyByDns(owner: PortalClient, dns: TestDns, domain: string) {
	const record = recordShown((await owner.get('/settings/sso')).text, domain)
	if (!record) throw new Error(`/settings/sso shows no TXT record for ${domain}`)
	await dns.setTxt(record.name, record.value)
	return owner.submit('/settings/sso/domains/verify', { domain })
}
