/** The interview provider's callback (signed, public): results and status changes. */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { handleInterviewCallback } from './callback.ts'

export function interviewRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'interviews.routes' })
		.use(kit.auth)
		.post('/api/interviews/callback', ({ request }) => handleInterviewCallback(deps, request), { auth: 'public', parse: 'none' })
}
