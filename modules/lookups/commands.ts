import { UsageError, type CommandDef } from '../../core/module.ts'
import { operatorActor, requireWorkspace } from '../auth/index.ts'
import { addLookup, allLookups, isLookupKind, LOOKUP_KINDS, removeLookup } from './service.ts'

const kindOf = (v: unknown) => {
	if (!isLookupKind(v)) throw new UsageError(`--kind must be one of ${LOOKUP_KINDS.join(', ')}`)
	return v
}

export const lookupCommands: CommandDef[] = [
	{
		name: 'lookup add',
		usage: `lookup add --workspace S --kind ${LOOKUP_KINDS.join('|')} --name N [--json]`,
		options: { workspace: 'string', kind: 'string', name: 'string' },
		required: ['workspace', 'kind', 'name'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const v = await addLookup(deps, operatorActor(ws), { kind: kindOf(o.kind), name: String(o.name) })
			return { json: { lookup: v }, lines: [`Added “${v.name}” (${v.kind}) as ${v.id}.`] }
		},
	},
	{
		name: 'lookup remove',
		usage: 'lookup remove --workspace S --id ID [--json]',
		options: { workspace: 'string', id: 'string' },
		required: ['workspace', 'id'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const v = await removeLookup(deps, operatorActor(ws), String(o.id))
			return { json: { lookup: v, removed: true }, lines: [`Removed “${v.name}” (${v.kind}).`] }
		},
	},
	{
		name: 'lookup list',
		usage: `lookup list --workspace S [--kind ${LOOKUP_KINDS.join('|')}] [--json]`,
		options: { workspace: 'string', kind: 'string' },
		required: ['workspace'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const all = await allLookups(deps, ws.id)
			const kinds = o.kind === undefined ? LOOKUP_KINDS : [kindOf(o.kind)]
			const values = kinds.flatMap((k) => all[k])
			return { json: { lookups: values }, lines: values.length ? values.map((v) => `${v.id}  ${v.kind.padEnd(22)} ${v.name}`) : ['No lookup values.'] }
		},
	},
]
