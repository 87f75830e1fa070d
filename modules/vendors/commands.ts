import { UsageError, type CommandDef } from '../../core/module.ts'
import { isoInstant, isoInstantOrNull } from '../../core/time.ts'
import { operatorActor, requireWorkspace } from '../auth/index.ts'
import { parseRules, updateVendorProfile, type VendorProfilePatch } from './directory.ts'
import { createKey, createVendor, revokeKey, setApiAccess, vendorsWithKeys, vendorWorkspace } from './service.ts'

export const vendorCommands: CommandDef[] = [
	{
		name: 'vendor list',
		usage: 'vendor list --workspace S [--json]',
		options: { workspace: 'string' },
		required: ['workspace'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const list = await vendorsWithKeys(deps, ws.id)
			// Key ids and dates only: the keys themselves are stored as hashes and were shown once.
			const vendors = list.map((v) => ({
				vendorId: v.vendorId,
				name: v.name,
				apiAccess: v.apiAccess,
				keys: v.keys.map((k) => ({
					keyId: k.keyId,
					createdAt: isoInstant(k.createdAt),
					lastUsedAt: isoInstantOrNull(k.lastUsedAt),
					revokedAt: isoInstantOrNull(k.revokedAt),
				})),
			}))
			const live = (v: (typeof vendors)[number]) => v.keys.filter((k) => !k.revokedAt).length
			return {
				json: { vendors },
				lines: vendors.length
					? vendors.map(
							(v) =>
								`${v.vendorId}  ${v.name}  API access ${v.apiAccess ? 'on' : 'off'}, ${live(v)} live key${live(v) === 1 ? '' : 's'}${v.keys.length > live(v) ? ` (${v.keys.length - live(v)} revoked)` : ''}`,
						)
					: [`No vendor in ${ws.slug} yet.`],
			}
		},
	},
	{
		name: 'vendor create',
		usage: 'vendor create --workspace S --name N [--json]',
		options: { workspace: 'string', name: 'string' },
		required: ['workspace', 'name'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const { vendorId, keyId, apiKey } = await createVendor(deps, operatorActor(ws), { name: String(o.name) })
			return {
				json: { vendorId, keyId, apiKey },
				lines: [`Created vendor ${vendorId} with API key ${keyId}.`, `API key (shown once, keep it secret): ${apiKey}`],
			}
		},
	},
	{
		name: 'vendor key-create',
		usage: 'vendor key-create --vendor ID [--json]',
		options: { vendor: 'string' },
		required: ['vendor'],
		async run(deps, o) {
			const ws = await vendorWorkspace(deps, String(o.vendor))
			const { keyId, apiKey } = await createKey(deps, operatorActor(ws), String(o.vendor))
			return { json: { keyId, apiKey }, lines: [`Created API key ${keyId}.`, `API key (shown once, keep it secret): ${apiKey}`] }
		},
	},
	{
		name: 'vendor key-revoke',
		usage: 'vendor key-revoke --key KEYID [--json]',
		options: { key: 'string' },
		required: ['key'],
		async run(deps, o) {
			const { keyId, vendorId, switchedOff } = await revokeKey(deps, String(o.key), operatorActor)
			const off = Object.values(switchedOff).flat()
			return {
				json: { keyId, vendorId, revoked: true, switchedOff },
				lines: [
					`Revoked API key ${keyId}; it stops working on its next request.`,
					...(off.length ? [`Switched off what it had set up: ${off.join(', ')}.`] : []),
				],
			}
		},
	},
	{
		name: 'vendor api-access',
		usage: 'vendor api-access --vendor ID --off|--on [--json]',
		options: { vendor: 'string', on: 'flag', off: 'flag' },
		required: ['vendor'],
		check(o) {
			if (Boolean(o.on) === Boolean(o.off)) throw new UsageError('give exactly one of --on or --off')
		},
		async run(deps, o) {
			const ws = await vendorWorkspace(deps, String(o.vendor))
			await setApiAccess(deps, operatorActor(ws), String(o.vendor), Boolean(o.on))
			return { json: { vendorId: o.vendor, apiAccess: Boolean(o.on) }, lines: [`API access for ${o.vendor} is now ${o.on ? 'on' : 'off'}.`] }
		},
	},
	{
		name: 'vendor set-submission',
		usage:
			'vendor set-submission --vendor ID [--email ADDRESS | --portal URL] [--contact-name N] [--contact-email E] [--contact-phone P] [--rules JSON] [--json]',
		options: {
			vendor: 'string',
			email: 'string',
			portal: 'string',
			'contact-name': 'string',
			'contact-email': 'string',
			'contact-phone': 'string',
			rules: 'string',
		},
		required: ['vendor'],
		check(o) {
			if (o.email !== undefined && o.portal !== undefined) throw new UsageError('give --email or --portal, not both')
		},
		async run(deps, o) {
			const patch: VendorProfilePatch = {}
			// Choosing one method clears the other, so a vendor never has two.
			if (o.email !== undefined) Object.assign(patch, { submissionEmail: String(o.email), submissionPortalUrl: null })
			if (o.portal !== undefined) Object.assign(patch, { submissionPortalUrl: String(o.portal), submissionEmail: null })
			if (o['contact-name'] !== undefined) patch.contactName = String(o['contact-name'])
			if (o['contact-email'] !== undefined) patch.contactEmail = String(o['contact-email'])
			if (o['contact-phone'] !== undefined) patch.contactPhone = String(o['contact-phone'])
			if (o.rules !== undefined) {
				let parsed: unknown
				try {
					parsed = JSON.parse(String(o.rules))
				} catch {
					throw new UsageError('--rules must be JSON, e.g. {"always":["dl","workAuth"],"byWorkAuthorization":{"H1B":["visa","i94"]}}')
				}
				patch.documentRules = parseRules(parsed)
			}
			if (!Object.keys(patch).length)
				throw new UsageError('nothing to change: give at least one of --email, --portal, --contact-name, --contact-email, --contact-phone, --rules')
			const ws = await vendorWorkspace(deps, String(o.vendor))
			const v = await updateVendorProfile(deps, operatorActor(ws), String(o.vendor), patch)
			const method =
				v.submission.method === 'email'
					? `by e-mail to ${v.submission.email}`
					: v.submission.method === 'portal'
						? `on the portal ${v.submission.portalUrl}`
						: 'not set'
			return { json: { vendor: v }, lines: [`Updated ${v.name}: submissions ${method}; documents always: ${v.documentRules.always.join(', ') || 'none'}.`] }
		},
	},
]
