/** Add to bench on the candidate page: the service behind `add_to_bench`. */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { formBody, formText, isRefusal, refusedForm } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { candidatePage } from '../candidates/index.ts'
import { BENCH_FORM, jobChoices } from './candidate-section.ts'
import type { RoleFamily } from './family.ts'
import { addToBench } from './service.ts'

export function candidateBenchRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'bench.candidate-pages' }).use(auth).post(
		'/candidates/:id/bench',
		async ({ session, params, body, redirect }) => {
			const actor = session.actor
			const values = { roleFamily: formText(body, 'roleFamily'), jobId: formText(body, 'jobId') }
			try {
				if (!values.roleFamily) throw new AppError('VALIDATION', 'Choose a role family', { fields: [{ field: 'roleFamily', message: 'must be chosen' }] })
				// The form offers a list of jobs; anything else is not a choice it made.
				if (values.jobId && !(await jobChoices(deps, actor, params.id)).some(([id]) => id === values.jobId))
					throw new AppError('VALIDATION', 'Choose a job from the list', { fields: [{ field: 'jobId', message: 'must be one of the jobs listed' }] })
				const added = await addToBench(deps, actor, { candidateId: params.id, roleFamily: values.roleFamily as RoleFamily, jobId: values.jobId || undefined })
				return redirect(`/candidates/${encodeURIComponent(params.id)}?done=${added.created ? 'bench-added' : 'bench-unchanged'}#done`, 303)
			} catch (error) {
				if (!isRefusal(error)) throw error
				const refused = refusedForm(BENCH_FORM, values, error, { roleFamily: ['bench-family', 'Role family'], jobId: ['bench-job', 'Job'] })
				return candidatePage(deps, session, params.id, { refused, status: error.status })
			}
		},
		{ session: { permission: 'bench:write' }, body: formBody },
	)
}
