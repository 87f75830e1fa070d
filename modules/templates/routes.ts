/** Template pages (Post/Redirect/Get; a refused form is the page again, 422, with every value kept). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { doneNotice, formBody, formText, isRefusal } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { recentApplications } from '../candidates/index.ts'
import { fillIn, fillInLine } from './fields.ts'
import { newTemplatePage, templatePage, templatesPage, type Kept, type Preview } from './pages.ts'
import { createTemplate, deleteTemplate, footersOf, getTemplate, listTemplates, setFooters, SHARE, updateTemplate, USE, type Template } from './service.ts'
import { mergeValues } from './values.ts'

const auth = { permission: USE } as const
const NOTICES: Record<string, string> = {
	created: 'The template was saved.',
	updated: 'Your changes were saved.',
	deleted: 'The template was deleted.',
	footer: 'The footer was saved: everything sent to candidates from now on carries it.',
}
const FIELD_IDS: Record<string, string> = {
	name: 'name',
	channel: 'channel',
	kind: 'kind',
	subject: 'subject',
	body: 'body',
	email: 'footer-email',
	text: 'footer-text',
}
const LABELS: Record<string, string> = {
	name: 'Name',
	channel: 'Channel',
	kind: 'Kind',
	subject: 'Subject',
	body: 'Message',
	email: 'E-mail footer',
	text: 'Text message footer',
}

/** A refusal as the form shows it: each problem on its field ("Message {{x}} is not a merge field."). */
function kept(values: Record<string, string>, error: AppError): Kept {
	const errors = (error.fields ?? []).map((f) => ({
		field: FIELD_IDS[f.field] ?? 'name',
		message: `${LABELS[f.field] ?? f.field} ${f.message.replace(/\.$/, '')}.`,
	}))
	return { values, errors: errors.length ? errors : [{ field: 'name', message: error.message }] }
}

const templateValues = (body: unknown) => Object.fromEntries(['name', 'channel', 'kind', 'subject', 'body', 'shared'].map((k) => [k, formText(body, k)]))
const templateInput = (v: Record<string, string>) => ({
	name: v.name!,
	channel: v.channel!,
	kind: v.kind!,
	subject: v.subject!,
	body: v.body!,
	shared: v.shared === 'yes',
})

/** The template filled in with the values of a real record: the application chosen, else the newest one the person can see. */
async function previewOf(deps: AppDeps, session: PageSession, template: Template, applicationId: string | undefined): Promise<Preview> {
	const choices = await recentApplications(deps, session.actor, 20)
	const chosen = choices.find((c) => c.id === applicationId) ?? choices[0] ?? null
	const values = await mergeValues(deps, session.actor, chosen ? { applicationId: chosen.id } : {})
	const subject = template.subject === null ? null : fillInLine(template.subject, values)
	const body = fillIn(template.body, values)
	return { choices, chosen, subject: subject?.text ?? null, body: body.text, missing: [...new Set([...(subject?.missing ?? []), ...body.missing])] }
}

/** Whether the person may share templates and set the firm's footers. */
const mayShare = (deps: AppDeps, session: PageSession) => deps.permissions.can(session.actor, SHARE)

/** The templates page, with a notice or the refused footer form kept. */
const listPage = async (deps: AppDeps, session: PageSession, o: { done?: string; footerKept?: Kept; status?: number } = {}) =>
	templatesPage(deps, session, {
		templates: await listTemplates(deps, session.actor),
		footers: await footersOf(deps, deps.db, session.actor.workspaceId),
		mayShare: mayShare(deps, session),
		done: doneNotice(NOTICES, o.done) ?? null,
		footerKept: o.footerKept,
		status: o.status,
	})

/** A template's page with its preview, a notice or the refused form kept. */
const onePage = async (deps: AppDeps, session: PageSession, id: string, o: { preview?: string; done?: string; kept?: Kept; status?: number } = {}) => {
	const template = await getTemplate(deps, session.actor, id)
	return templatePage(deps, session, {
		template,
		preview: await previewOf(deps, session, template, o.preview),
		done: doneNotice(NOTICES, o.done) ?? null,
		kept: o.kept,
		status: o.status,
	})
}

export function templateRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'templates.routes' })
		.use(kit.auth)
		.get('/settings/templates', ({ session, query }) => listPage(deps, session, { done: query.done }), {
			session: auth,
			query: t.Object({ done: t.Optional(t.String({ maxLength: 20 })) }),
		})
		.get('/settings/templates/new', ({ session }) => newTemplatePage(deps, session, { mayShare: mayShare(deps, session) }), { session: auth })
		.post(
			'/settings/templates',
			async ({ session, body, redirect }) => {
				const values = templateValues(body)
				try {
					const template = await createTemplate(deps, session.actor, templateInput(values))
					return redirect(`/settings/templates/${template.id}?done=created`, 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return newTemplatePage(deps, session, { mayShare: mayShare(deps, session), kept: kept(values, error), status: 422 })
				}
			},
			{ session: auth, body: formBody },
		)
		.post(
			'/settings/templates/footer',
			async ({ session, body, redirect }) => {
				const values = { email: formText(body, 'email'), text: formText(body, 'text') }
				try {
					await setFooters(deps, session.actor, values)
					return redirect('/settings/templates?done=footer#footer', 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return listPage(deps, session, { footerKept: kept(values, error), status: 422 })
				}
			},
			{ session: { permission: SHARE }, body: formBody },
		)
		.get('/settings/templates/:id', ({ session, params, query }) => onePage(deps, session, params.id, { preview: query.preview, done: query.done }), {
			session: auth,
			query: t.Object({ preview: t.Optional(t.String({ maxLength: 160 })), done: t.Optional(t.String({ maxLength: 20 })) }),
		})
		.post(
			'/settings/templates/:id',
			async ({ session, params, body, redirect }) => {
				const values = templateValues(body)
				try {
					await updateTemplate(deps, session.actor, params.id, templateInput(values))
					return redirect(`/settings/templates/${params.id}?done=updated`, 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					return onePage(deps, session, params.id, { kept: kept(values, error), status: 422 })
				}
			},
			{ session: auth, body: formBody },
		)
		.post(
			'/settings/templates/:id/delete',
			async ({ session, params, redirect }) => {
				await deleteTemplate(deps, session.actor, params.id)
				return redirect('/settings/templates?done=deleted', 303)
			},
			{ session: auth, body: formBody },
		)
}
