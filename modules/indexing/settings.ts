/** Search-engine notifications' settings (core/config.ts parses them with the rest at start-up). */
import { readFileSync } from 'node:fs'
import { defineSettings } from '../../core/config.ts'

/** The shared IndexNow endpoint: it passes each notice on to every search engine that takes part. */
export const DEFAULT_INDEXNOW_ENDPOINT = 'https://api.indexnow.org/indexnow'
export const DEFAULT_GOOGLE_INDEXING_ENDPOINT = 'https://indexing.googleapis.com/v3/urlNotifications:publish'

/** The fields of a Google service account key file that signing needs. */
export interface ServiceAccount {
	readonly clientEmail: string
	readonly privateKey: string
	readonly privateKeyId: string | undefined
}

export interface IndexingSettings {
	/** IndexNow's key (`INDEXNOW_KEY`), served at `/<key>.txt`; unset: IndexNow is off. */
	readonly indexNowKey: string | undefined
	readonly indexNowEndpoint: string
	/** The service account of `GOOGLE_INDEXING_CREDENTIALS` (a key file); unset: the Indexing API is off. */
	readonly googleAccount: ServiceAccount | undefined
	readonly googleIndexingEndpoint: string
}

// IndexNow's rule for keys: 8 to 128 letters, digits and dashes.
const KEY = /^[A-Za-z0-9-]{8,128}$/

export const indexingSettings = defineSettings<IndexingSettings>({
	variables: ['INDEXNOW_KEY', 'INDEXNOW_ENDPOINT', 'GOOGLE_INDEXING_CREDENTIALS', 'GOOGLE_INDEXING_ENDPOINT'],
	parse(env) {
		const key = env.value('INDEXNOW_KEY')
		if (key !== undefined && !KEY.test(key)) env.problem('INDEXNOW_KEY must be 8 to 128 letters, digits and dashes (the IndexNow rule)')
		const file = env.value('GOOGLE_INDEXING_CREDENTIALS')
		let googleAccount: ServiceAccount | undefined
		if (file !== undefined) {
			try {
				const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
				if (typeof json.client_email !== 'string' || typeof json.private_key !== 'string') throw new Error('it has no client_email and private_key')
				googleAccount = {
					clientEmail: json.client_email,
					privateKey: json.private_key,
					privateKeyId: typeof json.private_key_id === 'string' ? json.private_key_id : undefined,
				}
			} catch (error) {
				// The file's content is never echoed: it holds a private key.
				env.problem(
					`GOOGLE_INDEXING_CREDENTIALS must name a readable service account key file (JSON with client_email and private_key): ${error instanceof SyntaxError ? 'it is not JSON' : (error as Error).message.split('\n')[0]}`,
				)
			}
		}
		return {
			indexNowKey: key !== undefined && KEY.test(key) ? key : undefined,
			indexNowEndpoint: env.url('INDEXNOW_ENDPOINT', ['https:', 'http:']) ?? DEFAULT_INDEXNOW_ENDPOINT,
			googleAccount,
			googleIndexingEndpoint: env.url('GOOGLE_INDEXING_ENDPOINT', ['https:', 'http:']) ?? DEFAULT_GOOGLE_INDEXING_ENDPOINT,
		}
	},
})
