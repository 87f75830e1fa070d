import { UsageError, type CommandDef } from '../../core/module.ts'
import { operatorActor, requireWorkspace } from '../auth/index.ts'
import { createKey, createVendor, revokeKey, setApiAccess, vendorWorkspace } from './service.ts'

export const vendorCommands: CommandDef[] = [
	{
		name: 'vendor create',
		usage: 'vendor create --workspace S --name N [--json]',
		options: { workspace: 'string', name: 'string' },
		required: ['workspace', 'name'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const { vendorId, keyId, apiKey } = await createVendor(deps, operatorActor(ws), { name: String(o.name) })
			return { json: { vendorId, keyId, apiKey }, lines: [`Created vendor ${vendorId} with API key ${keyId}.`, `API key (shown once, keep it secret): ${apiKey}`] }
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
			const { keyId, vendorId } = await revokeKey(deps, String(o.key), operatorActor)
			return { json: { keyId, vendorId, revoked: true }, lines: [`Revoked API key ${keyId}; it stops working on its next request.`] }
		},
	},
	{
		name: 'vendor api-access',
		usage: 'vendor api-access --vendor ID --off|--on [--json]',
		options: { vendor: 'string', on: 'flag', off: 'flag' },
		required: ['vendor'],
		async run(deps, o) {
			if (Boolean(o.on) === Boolean(o.off)) throw new UsageError('give exactly one of --on or --off')
			const ws = await vendorWorkspace(deps, String(o.vendor))
			await setApiAccess(deps, operatorActor(ws), String(o.vendor), Boolean(o.on))
			return { json: { vendorId: o.vendor, apiAccess: Boolean(o.on) }, lines: [`API access for ${o.vendor} is now ${o.on ? 'on' : 'off'}.`] }
		},
	},
]
