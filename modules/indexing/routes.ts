/** IndexNow's key file, `/<key>.txt`: the engines fetch it to check that the notices come from this site. */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { HttpKit } from '../../core/module.ts'
import { indexingSettings } from './settings.ts'

export function indexingRoutes(deps: AppDeps, { auth }: HttpKit) {
	const key = deps.config.settings.of(indexingSettings).indexNowKey
	const app = new Elysia({ name: 'indexing.routes' }).use(auth)
	if (!key) return app
	return app.get(
		`/${key}.txt`,
		({ set }) => {
			set.headers['content-type'] = 'text/plain; charset=utf-8'
			return key
		},
		{ auth: 'public' },
	)
}
