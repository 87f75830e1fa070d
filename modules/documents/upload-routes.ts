/** The public upload page behind a document request's secure link (`/upload/<token>`). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import type { HttpKit } from '../../core/module.ts'
import { isDocumentKind } from '../vendors/index.ts'
import { linkProblemPage, uploadPage } from './upload-pages.ts'
import { openUploadLink, storeUpload, UploadLinkError } from './uploads.ts'

const token = t.Object({ token: t.String({ maxLength: 100 }) })
const query = t.Object({ received: t.Optional(t.String({ maxLength: 20 })) })
const form = t.Object({ csrf: t.Optional(t.String()) }, { additionalProperties: true })

async function fileOf(value: unknown): Promise<{ name: string; bytes: Uint8Array } | null> {
	const blob = Array.isArray(value) ? value[0] : value
	if (!(blob instanceof Blob)) return null
	return { name: (blob as File).name ?? '', bytes: new Uint8Array(await blob.arrayBuffer()) }
}

export function uploadRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'documents.routes' })
		.use(auth)
		.get(
			'/upload/:token',
			async ({ params, query, cookie }) => {
				try {
					const link = await openUploadLink(deps, params.token)
					return uploadPage(link, {
						token: params.token,
						csrf: anonymousCsrf(deps, cookie),
						received: isDocumentKind(query.received) ? query.received : undefined,
					})
				} catch (error) {
					if (error instanceof UploadLinkError) return linkProblemPage(error.reason)
					throw error
				}
			},
			{ auth: 'form', params: token, query },
		)
		.post(
			'/upload/:token',
			async ({ params, body, cookie, redirect }) => {
				const fields = body as Record<string, unknown>
				const kind = String(fields.kind ?? '')
				try {
					const stored = await storeUpload(deps, params.token, kind, await fileOf(fields.file))
					return redirect(`/upload/${params.token}?received=${stored.kind}`, 303)
				} catch (error) {
					if (error instanceof UploadLinkError) return linkProblemPage(error.reason)
					if (!(error instanceof AppError) || error.status >= 500) throw error
					const link = await openUploadLink(deps, params.token)
					const message = error.fields?.[0]
						? error.fields[0].field === 'file' && error.code === 'VALIDATION'
							? error.fields[0].message
							: error.message
						: error.message
					return uploadPage(link, {
						token: params.token,
						csrf: anonymousCsrf(deps, cookie),
						error: { kind, message: capitalise(message) },
						status: error.status,
					})
				}
			},
			{ auth: 'form', params: token, body: form },
		)
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
