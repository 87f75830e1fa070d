/**
 * The public upload page behind a document request's secure link (`/upload/<token>`).
 *
 * Uploads are limited like the careers apply form's applications, with the same limiter: per client
 * address (before the link is even looked up) and per link (a forwarded link used from many
 * addresses), each `UPLOADS_PER_MINUTE`; over either, the page again with 429, `Retry-After` and
 * what to do. What one link takes in all is the service's rule (`uploads.ts`).
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { clientAddress } from '../../core/http/client-address.ts'
import { anonymousCsrf } from '../../core/http/csrf.ts'
import { formText } from '../../core/http/form.ts'
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

/**
 * Uploads one client address, and one link, may send a minute. A candidate sends a few documents and
 * perhaps a better copy of one; ten covers that with room to spare, while a script holding the link
 * is stopped after ten files (each up to 10 MB) instead of filling the storage.
 */
export const UPLOADS_PER_MINUTE = 10

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
			async ({ params, body, cookie, redirect, request }) => {
				const fields = body as Record<string, unknown>
				const kind = formText(fields, 'kind')
				try {
					const byAddress = await deps.limiter.hit(`upload:${clientAddress(deps.config, request)}`, UPLOADS_PER_MINUTE)
					if (!byAddress.allowed) return await tooMany(deps, params.token, cookie, kind, byAddress.resetSeconds, 'from your network')
					const link = await openUploadLink(deps, params.token)
					const byLink = await deps.limiter.hit(`upload-link:${link.requestId}`, UPLOADS_PER_MINUTE)
					if (!byLink.allowed) return await tooMany(deps, params.token, cookie, kind, byLink.resetSeconds, 'through this link')
					const stored = await storeUpload(deps, params.token, kind, await fileOf(fields.file))
					return redirect(`/upload/${params.token}?received=${stored.kind}`, 303)
				} catch (error) {
					if (error instanceof UploadLinkError) return linkProblemPage(error.reason)
					if (!(error instanceof AppError) || error.status >= 500) throw error
					const link = await openUploadLink(deps, params.token)
					// A refused field says what is wrong in its own words (the generic "fields are not valid" tells the candidate nothing).
					const message = error.code === 'VALIDATION' && error.fields?.[0] ? error.fields[0].message : error.message
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

/** The page again, 429 with `Retry-After`: how long to wait, and that nothing was stored. */
async function tooMany(deps: AppDeps, token: string, cookie: Record<string, any>, kind: string, seconds: number, where: string): Promise<Response> {
	const link = await openUploadLink(deps, token)
	const res = uploadPage(link, {
		token,
		csrf: anonymousCsrf(deps, cookie),
		error: {
			kind,
			message: `Too many files were sent ${where} in the last minute, so this one was not received. Wait ${seconds} second${seconds === 1 ? '' : 's'}, choose the file again and upload it.`,
		},
		status: 429,
	})
	res.headers.set('Retry-After', String(seconds))
	return res
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
