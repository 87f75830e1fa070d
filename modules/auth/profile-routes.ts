/**
 * `/settings/profile`: the person's time zone, then what other modules keep about the person
 * (`pageSections` with page `profile`: the signature, the daily digest), each with its own form.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { formBody, formText, isRefusal } from '../../core/http/form.ts'
import { html, pageSections, portalPage, sectionNotice } from '../../core/html.ts'
import type { HttpKit, RefusedForm } from '../../core/module.ts'
import { csrfField, errorSummary, facts, notice, pageHeader, selectField, type FieldError } from '../../core/ui.ts'
import { formatDateTime, timeZoneChoices, UTC } from '../../core/time.ts'
import { profileOf, setTimeZone } from './profile.ts'

export const PROFILE_PATH = '/settings/profile'

async function profilePage(
	deps: AppDeps,
	session: PageSession,
	o: { done?: string; errors?: FieldError[]; refused?: RefusedForm; zone?: string; status?: number } = {},
) {
	const me = await profileOf(deps.db, session.actor.userId!)
	const sections = await pageSections(deps, 'profile', session, session.actor.userId!, { refused: o.refused })
	const done = o.done === 'zone' ? `Times are now shown in ${me.timeZone}.` : sectionNotice(deps, 'profile', o.done)
	const errors = o.errors ?? o.refused?.errors
	return portalPage(
		deps,
		session,
		{ title: 'Your profile', current: PROFILE_PATH, hasErrors: Boolean(errors?.length), status: o.status },
		html`${errorSummary(errors)}${notice(done)}
${pageHeader({ title: 'Your profile', meta: `${me.email} · ${session.actor.workspaceSlug}` })}
<section class="card" id="time-zone" aria-labelledby="zone-h"><h2 id="zone-h">Time zone</h2>
<p>Every time in the portal is shown in your time zone, with the zone named, and every date and time you type is read in it. It is yours in every workspace.${me.timeZone ? '' : ' You have not chosen one yet, so times are shown in UTC.'}</p>
${facts([['Now', formatDateTime(deps.now(), me.timeZone ?? UTC)]])}
<form method="post" action="${PROFILE_PATH}" class="stack" novalidate>${csrfField(session)}
${selectField({ id: 'timeZone', label: 'Time zone', hint: 'Your browser’s zone is taken at your first sign-in; choose another here.', value: o.zone ?? me.timeZone ?? UTC, options: timeZoneChoices(o.zone ?? me.timeZone).map((z) => [z, z.replaceAll('_', ' ')] as const), errors: o.errors })}
<button type="submit">Save time zone</button></form></section>
${sections}`,
	)
}

export function profileRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'auth.profile' })
		.use(auth)
		.get(PROFILE_PATH, ({ session, query }) => profilePage(deps, session, { done: query.done }), {
			session: 'signed-in',
			query: t.Object({ done: t.Optional(t.String({ maxLength: 40 })) }),
		})
		.post(
			PROFILE_PATH,
			async ({ session, body, redirect }) => {
				const zone = formText(body, 'timeZone')
				try {
					await setTimeZone(deps, session.actor, zone)
					return redirect(`${PROFILE_PATH}?done=zone`, 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return profilePage(deps, session, { errors: [{ field: 'timeZone', message: 'Time zone must be one of the zones listed.' }], status: 422 })
				}
			},
			{ session: 'signed-in', body: formBody },
		)
}

export { profilePage }
