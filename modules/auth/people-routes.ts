/** The people page (members and invitations) and the invitations page of the invited person. */
import { formList, formText, refusedForm, type FieldLabels } from '../../core/http/form.ts'
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import type { HttpKit } from '../../core/module.ts'
import { cancelInvitation, invitePerson, listInvitations } from './invitations.ts'
import { PERSON_FORM, peoplePage } from './people-pages.ts'
import { signOutEverywhere } from './access.ts'
import { changeRole, listPeople, removePerson, setGrants } from './people.ts'
import { answerInvitation, invitationsOpenTo, switchableWorkspaces } from './workspace-switch.ts'
import { invitationsPage } from './workspace-pages.ts'

const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })
const done = t.Object({ done: t.Optional(t.String()) })
const PERSON_LABELS: FieldLabels = {
	name: ['p-name', 'Name'],
	email: ['p-email', 'Email'],
	role: ['p-role', 'Role'],
	password: ['p-password', 'Temporary password'],
	grants: ['p-grants', 'Extra permissions'],
}

/** Confirmations shown after a redirect (Post/Redirect/Get: reloading never repeats a change). */
const PEOPLE_NOTICES: Record<string, string> = {
	// The same words whether or not the address already had an account.
	added: 'The person was added. They join the workspace once they sign in and accept the invitation.',
	removed: 'The person was removed; their sessions, tokens and app connections stopped working.',
	'signed-out': 'The person was signed out everywhere in this workspace: their sessions, personal tokens and app connections stopped working.',
	role: 'The role was changed; it applies to their next request.',
	// A role change ends the extra permissions the new role already includes (changeRole): said, so nobody wonders where they went.
	'role-grants':
		'The role was changed; it applies to their next request. The extra permissions the new role already includes ended (the role gives them); the Extra permissions column shows those they keep.',
	cancelled: 'The invitation was cancelled.',
	grants: 'The extra permissions were saved; they apply to the person’s next request. The Extra permissions column shows what they hold now.',
	'grants-ended': 'The person’s extra permissions ended; they apply to their next request.',
	// Only a form older than a role change ticks one the role includes: said, as after a role change.
	'grants-in-role':
		'The extra permissions were saved; they apply to the person’s next request. Those their role already includes were not kept (the role gives them).',
	'grants-unchanged': 'Nothing changed: the person already had exactly these extra permissions.',
}

/** The confirmation of a Save extra permissions, from what `setGrants` answered. */
const grantsDone = (done: Awaited<ReturnType<typeof setGrants>>) =>
	!done.changed ? 'grants-unchanged' : done.alreadyInRole.length ? 'grants-in-role' : done.grants.length ? 'grants' : 'grants-ended'
const INVITATION_NOTICES: Record<string, string> = {
	accepted: 'You joined the workspace. Switch to it below, or choose it the next time you sign in.',
	declined: 'The invitation was declined.',
}

/**
 * Runs a change: a redirect to `location` (Post/Redirect/Get; a function of what the change answered
 * when the confirmation depends on it), or, refused, the page again (`again`) with why.
 */
async function changeThen<T>(work: () => Promise<T>, location: string | ((done: T) => string), again: (error: AppError) => Promise<Response>) {
	try {
		const done = await work()
		return new Response(null, { status: 303, headers: { location: typeof location === 'string' ? location : location(done) } })
	} catch (error) {
		if (!(error instanceof AppError) || error.status >= 500) throw error
		return again(error)
	}
}

/** The people page: members and invitations of the workspace (owners and admins). */
function memberRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	const people = async (session: PageSession, message: Pick<Parameters<typeof peoplePage>[2], 'error' | 'refused' | 'notice'> = {}) =>
		peoplePage(deps, session, {
			people: await listPeople(deps.db, session.actor.workspaceId),
			invitations: await listInvitations(deps, session.actor.workspaceId),
			...message,
		})
	/** Runs a change on the people page: its redirect, or the page again with the refusal. */
	const change = <T>(session: PageSession, work: () => Promise<T>, doneKey: string | ((done: T) => string)) =>
		changeThen(
			work,
			(done) => `/people?done=${typeof doneKey === 'string' ? doneKey : doneKey(done)}`,
			(error) => people(session, { error: error.fields?.map((x) => `${x.field} ${x.message}`).join('; ') || error.message }),
		)
	const wsOf = (session: PageSession) => ({ id: session.actor.workspaceId, slug: session.actor.workspaceSlug })
	const manage = { session: { permission: 'auth:manage_people' as const }, body: form }
	return new Elysia({ name: 'auth.people.members' })
		.use(auth)
		.get('/people', ({ session, query }) => people(session, { notice: PEOPLE_NOTICES[query.done ?? ''] }), {
			session: { permission: 'auth:manage_people' },
			query: done,
		})
		.post(
			'/people',
			({ session, body }) => {
				const input = {
					email: formText(body, 'email'),
					name: formText(body, 'name'),
					role: formText(body, 'role'),
					password: formText(body, 'password'),
					grants: formList(body, 'grant'),
				}
				const { password: _, grants, ...typed } = input
				const values = { ...typed, grant: grants }
				// A problem with a field is shown beside it, with what was typed kept; a conflict (already here) above the list.
				return changeThen(
					() => invitePerson(deps, session.actor, wsOf(session), input),
					'/people?done=added',
					(error) => people(session, error.fields?.length ? { refused: refusedForm(PERSON_FORM, values, error, PERSON_LABELS) } : { error: error.message }),
				)
			},
			manage,
		)
		.post(
			'/people/:userId/remove',
			({ session, params }) => change(session, () => removePerson(deps, session.actor, wsOf(session), { userId: params.userId }), 'removed'),
			manage,
		)
		.post(
			'/people/:userId/sign-out-everywhere',
			({ session, params }) => change(session, () => signOutEverywhere(deps, session.actor, wsOf(session), params.userId), 'signed-out'),
			manage,
		)
		.post(
			'/people/:userId/role',
			({ session, params, body }) =>
				change(
					session,
					() => changeRole(deps, session.actor, wsOf(session), { userId: params.userId }, formText(body, 'role')),
					(done) => (done.grantsEnded.length ? 'role-grants' : 'role'),
				),
			manage,
		)
		.post(
			'/people/:userId/grants',
			({ session, params, body }) =>
				change(session, () => setGrants(deps, session.actor, wsOf(session), { userId: params.userId }, formList(body, 'grant')), grantsDone),
			manage,
		)
		.post(
			'/people/invitations/:id/cancel',
			({ session, params }) => change(session, () => cancelInvitation(deps, session.actor, wsOf(session), params.id), 'cancelled'),
			manage,
		)
}

/** The invited person's own invitations: accept or decline. */
function ownInvitationRoutes(deps: AppDeps, auth: HttpKit['auth']) {
	const mine = async (session: PageSession, message: { error?: string; notice?: string } = {}) =>
		invitationsPage(deps, session, {
			invitations: await invitationsOpenTo(deps, session),
			workspaces: await switchableWorkspaces(deps, session),
			...message,
		})
	const answer = (session: PageSession, work: () => Promise<unknown>, doneKey: string) =>
		changeThen(work, `/invitations?done=${doneKey}`, (error) => mine(session, { error: error.message }))
	return new Elysia({ name: 'auth.people.invitations' })
		.use(auth)
		.get('/invitations', ({ session, query }) => mine(session, { notice: INVITATION_NOTICES[query.done ?? ''] }), { session: 'signed-in', query: done })
		.post('/invitations/:id/accept', ({ session, params }) => answer(session, () => answerInvitation(deps, session, params.id, 'accept'), 'accepted'), {
			session: 'signed-in',
			body: form,
		})
		.post('/invitations/:id/decline', ({ session, params }) => answer(session, () => answerInvitation(deps, session, params.id, 'decline'), 'declined'), {
			session: 'signed-in',
			body: form,
		})
}

export function peopleRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'auth.people' }).use(memberRoutes(deps, auth)).use(ownInvitationRoutes(deps, auth))
}
