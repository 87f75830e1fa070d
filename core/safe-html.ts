/**
 * HTML that is safe to send as it is: escaped by core/html.ts's `html` template, or marked `raw` (already-safe
 * HTML). A leaf, so the module contract (core/module.ts) can name it; imported from core/html.ts.
 */
export class SafeHtml {
	constructor(readonly value: string) {}
	toString() {
		return this.value
	}
}

export const raw = (value: string) => new SafeHtml(value)
