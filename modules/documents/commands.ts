/** Operator commands of the documents module. */
import { UsageError, type CommandDef } from '../../core/module.ts'
import { revokeUploadLink } from './revocation.ts'

export const documentCommands: CommandDef[] = [
	{
		name: 'documents revoke-link',
		usage: 'documents revoke-link --link URL|TOKEN | --request ID [--json]',
		options: { link: 'string', request: 'string' },
		check(o) {
			if ((o.link === undefined) === (o.request === undefined)) throw new UsageError('give exactly one of --link or --request')
		},
		async run(deps, o) {
			const result = await revokeUploadLink(deps, o.link !== undefined ? { link: String(o.link) } : { requestId: String(o.request) })
			const line = result.revoked
				? `Withdrew the upload link of request ${result.requestId}; it stops working at once.`
				: `The upload link of request ${result.requestId} had already stopped working (${result.state}).`
			return { json: { ...result }, lines: [line] }
		},
	},
]
