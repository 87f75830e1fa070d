/** How interview statuses and verdicts read on pages: tags in words, toned (never colour alone). */
import { tag, type Tone } from '../../core/ui.ts'
import { VERDICT_LABELS, type Verdict } from './questions.ts'
import type { InterviewStatus } from './service.ts'

export const STATUS_LABELS: Record<InterviewStatus, string> = { invited: 'Invited', started: 'Started', completed: 'Completed', expired: 'Expired' }
const STATUS_TONES: Record<InterviewStatus, Tone> = { invited: 'info', started: 'info', completed: 'good', expired: 'neutral' }
const VERDICT_TONES: Record<Verdict, Tone> = { recommended: 'good', consider: 'warn', not_recommended: 'bad' }

export const statusTag = (s: InterviewStatus) => tag(STATUS_LABELS[s], STATUS_TONES[s])
export const verdictTag = (v: Verdict | null) => (v ? tag(VERDICT_LABELS[v], VERDICT_TONES[v]) : '—')
export const scoreText = (n: number | null) => (n === null ? '—' : `${n} of 100`)
