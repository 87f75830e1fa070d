/** Only same-site relative paths may be a `next` target (no open redirect). */
export const safeNext = (next: unknown) => (typeof next === 'string' && /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/portal')
