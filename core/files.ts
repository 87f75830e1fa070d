/**
 * Stored files (candidate documents, résumés, mail attachments) behind one small interface, so the
 * local folder can be swapped for an S3-compatible bucket without touching the modules.
 *
 * Keys are relative paths such as `documents/<workspace>/<candidate>/<id>.pdf`; the local store
 * keeps them under `DATA_DIR/files/`. Keys are made by the code, never taken from a request, and
 * are still checked so that no key can leave the folder.
 */
import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import { S3Client } from 'bun'
import type { Config, S3Config } from './config.ts'

export interface FileStore {
	/** Where the files live, for operators (`local:/srv/data/files`). */
	readonly location: string
	put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
	/** The file's bytes; null when there is no such file. */
	get(key: string): Promise<Uint8Array | null>
	delete(key: string): Promise<void>
}

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/

function checkKey(key: string): void {
	if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) throw new Error(`file key "${key}" is not valid`)
}

/** Files under a local folder; writes go to a temporary name first so a reader never sees half a file. */
export function localFileStore(root: string): FileStore {
	const base = resolve(root)
	const pathOf = (key: string) => {
		checkKey(key)
		const path = resolve(base, key)
		if (!path.startsWith(base + sep)) throw new Error(`file key "${key}" leaves the store`)
		return path
	}
	return {
		location: `local:${base}`,
		async put(key, bytes) {
			const path = pathOf(key)
			await mkdir(dirname(path), { recursive: true })
			const temporary = `${path}.${crypto.randomUUID()}.part`
			await Bun.write(temporary, bytes)
			await rename(temporary, path)
		},
		async get(key) {
			const file = Bun.file(pathOf(key))
			if (!(await file.exists())) return null
			return new Uint8Array(await file.arrayBuffer())
		},
		async delete(key) {
			await rm(pathOf(key), { force: true })
		},
	}
}

/** Files in a bucket of any S3-compatible store (AWS S3, MinIO, R2…), through Bun's native client. */
export function s3FileStore(s3: S3Config): FileStore {
	const client = new S3Client({ endpoint: s3.endpoint, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region })
	return {
		location: `s3:${s3.endpoint}/${s3.bucket}`,
		async put(key, bytes, contentType) {
			checkKey(key)
			await client.write(key, bytes, { type: contentType })
		},
		async get(key) {
			checkKey(key)
			const file = client.file(key)
			if (!(await file.exists())) return null
			return new Uint8Array(await file.arrayBuffer())
		},
		async delete(key) {
			checkKey(key)
			await client.delete(key)
		},
	}
}

const stores = new Map<string, FileStore>()

/** The configured store: the S3-compatible bucket when `S3_*` is set, otherwise `DATA_DIR/files`. */
export function fileStore(config: Pick<Config, 'dataDir' | 's3'>): FileStore {
	const where = config.s3 ? `s3:${config.s3.endpoint}/${config.s3.bucket}` : resolve(config.dataDir, 'files')
	let store = stores.get(where)
	if (!store) stores.set(where, (store = config.s3 ? s3FileStore(config.s3) : localFileStore(where)))
	return store
}
