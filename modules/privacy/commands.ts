/** Operator commands: `candidate export` (a ZIP of everything held about a person) and `candidate erase`. */
import { writeFile } from 'node:fs/promises'
import type { AppDeps } from '../../core/deps.ts'
import { notFound } from '../../core/errors.ts'
import type { CommandDef } from '../../core/module.ts'
import { operatorActor } from '../auth/index.ts'
import { candidateWorkspace } from '../candidates/index.ts'
import { eraseCandidate, exportCandidate } from './service.ts'

/** The audit trail's address for what the operator's CLI does. */
const CLI_ADDRESS = 'cli'

async function operatorFor(deps: AppDeps, candidateId: string) {
	const ws = await candidateWorkspace(deps, candidateId)
	if (!ws) throw notFound(`No candidate with the id "${candidateId}"`)
	return operatorActor(ws)
}

export const privacyCommands: CommandDef[] = [
	{
		name: 'candidate export',
		usage: 'candidate export --candidate ID --out FILE [--json]',
		options: { candidate: 'string', out: 'string' },
		required: ['candidate', 'out'],
		async run(deps, o) {
			const candidateId = String(o.candidate)
			const out = await exportCandidate(deps, await operatorFor(deps, candidateId), candidateId, CLI_ADDRESS)
			await writeFile(String(o.out), out.bytes)
			return {
				json: { candidateId, file: String(o.out), bytes: out.bytes.byteLength, missingFiles: out.missingFiles },
				lines: [
					`Wrote ${out.bytes.byteLength.toLocaleString('en-US')} bytes to ${String(o.out)}.`,
					...(out.missingFiles.length ? [`Not in the file store (named in candidate.json): ${out.missingFiles.join(', ')}`] : []),
				],
			}
		},
	},
	{
		name: 'candidate erase',
		usage: 'candidate erase --candidate ID [--json]',
		options: { candidate: 'string' },
		required: ['candidate'],
		async run(deps, o) {
			const candidateId = String(o.candidate)
			const erased = await eraseCandidate(deps, await operatorFor(deps, candidateId), candidateId, CLI_ADDRESS)
			const heldUntil = erased.heldUntil?.toISOString() ?? null
			return {
				json: { candidateId, applications: erased.applications, cancelledMessages: erased.cancelledMessages, heldUntil },
				lines: [
					`Erased ${candidateId}: ${erased.applications} application(s), ${erased.cancelledMessages} message(s) not sent.`,
					heldUntil ? `An anonymous applicant-flow record is kept until ${heldUntil} (legal hold).` : 'No record kept (no legal hold).',
				],
			}
		},
	},
]
