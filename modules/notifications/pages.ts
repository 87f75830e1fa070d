/** The notifications page (unread first, Mark all as read) and the daily digest part of the profile page. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { actionButton, checkboxes, csrfField, notice, pageHeader, pager, tag, when } from '../../core/ui.ts'
import { DIGEST_HOUR, digestChosen } from './digest.ts'
import type { NotificationView } from './service.ts'

export function notificationsPage(
	deps: AppDeps,
	session: PageSession,
	view: { notifications: NotificationView[]; nextCursor: string | null; paged: boolean; done?: string | null; error?: string },
): Response {
	const unread = view.notifications.filter((n) => !n.read).length
	const item = (n: NotificationView) =>
		html`<li class="${n.read ? 'read' : 'unread'}">${n.read ? '' : html`${tag('Unread', 'info')} `}${n.href ? html`<a href="/notifications/${n.id}">${n.sentence}</a>` : n.sentence}<br><span class="meta">${when(n.createdAt)}</span></li>`
	return portalPage(
		deps,
		session,
		{ title: 'Notifications', current: '/notifications', status: view.error ? 422 : 200 },
		html`${notice(view.done)}${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${pageHeader({
	title: 'Notifications',
	meta: 'When a colleague mentions you in a note. Unread first.',
	actions: unread ? actionButton({ session, action: '/notifications/read-all', label: 'Mark all as read', style: 'secondary' }) : null,
})}
<section class="card">${view.notifications.length ? html`<ul class="queue notifications">${view.notifications.map(item)}</ul>` : html`<p class="empty">${view.error ? 'Start again from the first page.' : view.paged ? 'No more notifications.' : 'No notifications yet. When a colleague writes @ and your name in a note, it shows here.'}</p>`}
${pager({ base: '/notifications', next: view.nextCursor, first: !view.paged })}</section>`,
	)
}

/** The daily digest on the profile page: one checkbox. */
export const digestSection: PageSection = {
	page: 'profile',
	order: 20,
	permission: 'notifications:read',
	notices: { digest: 'Your choice of the daily digest was saved.' },
	async render(deps, session) {
		const on = await digestChosen(deps.db, session.actor.workspaceId, session.actor.userId!)
		return html`<section class="card" id="digest" aria-labelledby="digest-h"><h2 id="digest-h">Daily e-mail digest</h2>
<p>Once a day, from ${String(DIGEST_HOUR).padStart(2, '0')}:00 in your time zone, an e-mail with your unread notifications, unread conversations and overdue to-dos in ${session.actor.workspaceSlug}. Nothing waiting, no e-mail.</p>
<form method="post" action="/notifications/digest" class="stack">${csrfField(session)}
${checkboxes({ id: 'digest-on', name: 'digest', legend: 'Daily digest', options: [['on', 'Send me the daily digest']], checked: on ? ['on'] : [] })}
<button type="submit" class="secondary">Save</button></form></section>`
	},
}
