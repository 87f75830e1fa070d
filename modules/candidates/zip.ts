/**
 * Zip files (Word .docx) read by their own directory, and unpacked with every inflated byte counted.
 *
 * A zip's directory states each entry's unpacked size, but nothing makes the packed data agree with
 * it: a 1 MB entry can inflate to 1 GiB while the directory says 1 KB. So the sizes the directory
 * states are only the budget: entries are inflated a kilobyte of packed data at a time, and an entry
 * that yields one byte more than it declared, or ends short of it, stops the unpacking at once. The
 * unpacked parts are zipped again (stored, not compressed), so the Word reader only ever sees bytes
 * that were counted here, whatever its own zip reader would have made of the original.
 */
import { Inflate, zipSync } from 'fflate'

export interface ZipEntry {
	name: string
	flags: number
	method: number
	packedSize: number
	unpackedSize: number
	localOffset: number
}

/** More entries than any Word file has (a résumé has about ten, a few hundred with many pictures). */
export const MAX_ZIP_ENTRIES = 2000

/** The entries of a zip's central directory, or null when it is not a well-formed zip. */
export function zipDirectory(bytes: Uint8Array): ZipEntry[] | null {
	if (bytes.length < 22) return null
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	let end = -1
	for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--)
		if (view.getUint32(i, true) === 0x06054b50) {
			end = i
			break
		}
	if (end < 0) return null
	const count = view.getUint16(end + 10, true)
	if (count > MAX_ZIP_ENTRIES) return null
	let at = view.getUint32(end + 16, true)
	const entries: ZipEntry[] = []
	for (let n = 0; n < count; n++) {
		if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null
		const nameLength = view.getUint16(at + 28, true)
		const extra = view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
		if (at + 46 + nameLength > bytes.length) return null
		entries.push({
			name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
			flags: view.getUint16(at + 8, true),
			method: view.getUint16(at + 10, true),
			packedSize: view.getUint32(at + 20, true),
			unpackedSize: view.getUint32(at + 24, true),
			localOffset: view.getUint32(at + 42, true),
		})
		at += 46 + nameLength + extra
	}
	return entries
}

/** Why a zip was not unpacked: over a limit (`limit`), or damaged, lying or of a kind we do not read (`damaged`). */
export class ZipRefused extends Error {
	constructor(
		readonly kind: 'limit' | 'damaged',
		message: string,
	) {
		super(message)
	}
}

const damaged = (why: string) => new ZipRefused('damaged', why)
/** Packed data is fed to the inflater this many bytes at a time: one push yields at most ~1 MB (deflate's best ratio is 1032:1). */
const SLICE = 1024

/** Inflates one entry's packed bytes, refusing the moment it yields more than `declared` bytes. */
function inflateCounted(packed: Uint8Array, declared: number, name: string): Uint8Array {
	const out = new Uint8Array(declared)
	let size = 0
	const inflater = new Inflate((chunk) => {
		if (size + chunk.length > declared) throw damaged(`the part “${name}” unpacks to more than the ${declared} bytes its zip directory states`)
		out.set(chunk, size)
		size += chunk.length
	})
	try {
		// The last slice is pushed as final: a stream that has not ended by then is an error.
		for (let at = 0; at < packed.length; at += SLICE) inflater.push(packed.subarray(at, at + SLICE), at + SLICE >= packed.length)
	} catch (error) {
		if (error instanceof ZipRefused) throw error
		throw damaged(`the part “${name}” is not valid compressed data`)
	}
	if (size !== declared) throw damaged(`the part “${name}” unpacks to ${size} bytes, not the ${declared} its zip directory states`)
	return out
}

/**
 * Every entry of the zip, inflated with its bytes counted, zipped again without compression.
 * Throws `ZipRefused('limit')` when the entries declare more than `maxUnpackedBytes` in all, and
 * `ZipRefused('damaged')` when an entry is encrypted, zip64, packed by another method than stored or
 * deflate, named twice, out of the file's bounds, or unpacks to another size than it declares.
 */
export function repackCounted(bytes: Uint8Array, maxUnpackedBytes: number): Uint8Array {
	const entries = zipDirectory(bytes)
	if (!entries) throw damaged('the Word file is not a well-formed zip file')
	const declared = entries.reduce((sum, e) => sum + e.unpackedSize, 0)
	if (declared > maxUnpackedBytes) throw new ZipRefused('limit', `it unpacks to more than ${Math.round(maxUnpackedBytes / 1024 / 1024)} MB`)
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	const parts: Record<string, Uint8Array> = Object.create(null)
	for (const e of entries) {
		if (e.flags & 0x1) throw damaged('the Word file is encrypted')
		if (e.packedSize === 0xffffffff || e.unpackedSize === 0xffffffff || e.localOffset === 0xffffffff)
			throw damaged('the Word file is in zip64 form, which Word does not write for a file this size')
		// A folder entry carries nothing: Word's reader never asks for one.
		if (e.name.endsWith('/') && e.unpackedSize === 0) continue
		// fflate's zip writer keeps names as keys of a plain object, where this one would set its prototype.
		if (e.name === '__proto__') throw damaged('a part has the name “__proto__”, which Word never uses')
		if (Object.hasOwn(parts, e.name)) throw damaged(`the part “${e.name}” appears twice`)
		const local = e.localOffset
		if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw damaged(`the part “${e.name}” is missing`)
		const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
		if (start + e.packedSize > bytes.length) throw damaged(`the part “${e.name}” runs past the end of the file`)
		const packed = bytes.subarray(start, start + e.packedSize)
		if (e.method === 0) {
			if (e.packedSize !== e.unpackedSize) throw damaged(`the stored part “${e.name}” has two different sizes`)
			parts[e.name] = packed
		} else if (e.method === 8) parts[e.name] = inflateCounted(packed, e.unpackedSize, e.name)
		else throw damaged(`the part “${e.name}” is packed with a method Word does not use (${e.method})`)
	}
	return zipSync(parts, { level: 0 })
}
