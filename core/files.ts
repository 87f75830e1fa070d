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
import type { Config } from './config.ts'

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

const stores = new Map<string, FileStore>()

/** The configured store: `DATA_DIR/files` (an S3-compatible store would be chosen here from config). */
export function fileStore(config: Pick<Config, 'dataDir'>): FileStore {
	const root = resolve(config.dataDir, 'files')
	let store = stores.get(root)
	if (!store) stores.set(root, (store = localFileStore(root)))
	return store
}
