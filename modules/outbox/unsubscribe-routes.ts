/**
 * The unsubscribe page of marketing-type messages (job alerts): the address in their footer and in
 * their `List-Unsubscribe` header. Opening it only asks (link checkers and previews open links);
 * pressing **Unsubscribe**, or a mail app's one-click POST (RFC 8058, without cookies), records it.
 * The signed address is the only credential: whoever holds it may only stop that person's job alerts.
 */
import { Elysia } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { html, page } from '../../core/html.ts'
import type { HttpKit } from '../../core/module.ts'
import { unsubscribeTarget } from './footer.ts'
import { unsubscribe } from './service.ts'

const notFound = () => new AppError('NOT_FOUND', 'This unsubscribe link is not valid.')

export function unsubscribeRoutes(deps: AppDeps, { auth }: HttpKit) {
	const target = (token: string) =>
		unsubscribeTarget(deps, token) ??
		(() => {
			throw notFound()
		})()
	return new Elysia({ name: 'outbox.unsubscribe' })
		.use(auth)
		.get(
			'/unsubscribe/:token',
			({ params }) => {
				target(params.token)
				return page(
					{ title: 'Unsubscribe from job alerts' },
					html`<section class="card"><h1>Unsubscribe from job alerts</h1>
<p>You will no longer receive job alerts and other marketing messages from this firm. Messages about your own applications (interviews, documents, replies) still reach you.</p>
<form method="post" action="/unsubscribe/${params.token}"><button type="submit">Unsubscribe</button></form></section>`,
				)
			},
			{ auth: 'public' },
		)
		.post(
			'/unsubscribe/:token',
			async ({ params }) => {
				await unsubscribe(deps, deps.db, target(params.token))
				return page(
					{ title: 'You are unsubscribed' },
					html`<section class="card"><h1>You are unsubscribed</h1><div class="notice" role="status"><p>You will no longer receive job alerts from this firm.</p></div></section>`,
				)
			},
			// A mail app's one-click unsubscribe posts `List-Unsubscribe=One-Click` without cookies: no CSRF token to check.
			{ auth: 'public', parse: 'none' },
		)
}
