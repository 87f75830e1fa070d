/**
 * A stage change in the activity log, in words: "from Applied to Screening", with the workspace's
 * own stage names (a stage renamed since reads with its name of today; one removed, with its key).
 * The line records the stage keys it left and entered (`stage-move.ts`); a line that lacks one says
 * what it knows ("to Screening"), and one that lacks both adds nothing.
 */
import type { ActivityChange } from '../../core/module.ts'
import { stageLabel, stagesOf } from './stages.ts'

const keyOf = (detail: Record<string, unknown> | null, name: 'from' | 'to') =>
	typeof detail?.[name] === 'string' && detail[name] !== '' ? (detail[name] as string) : null

export const stageChangeWords: ActivityChange = {
	action: 'application.stage_changed',
	async words(deps, workspaceId, details) {
		const stages = await stagesOf(deps, workspaceId)
		return details.map((detail) => {
			const from = keyOf(detail, 'from')
			const to = keyOf(detail, 'to')
			const words = [from ? `from ${stageLabel(stages, from)}` : '', to ? `to ${stageLabel(stages, to)}` : ''].filter(Boolean).join(' ')
			return words || null
		})
	},
}
