# Benchline server. For production, point it at PostgreSQL (DATABASE_URL) and, with several
# instances, at Redis (REDIS_URL); without DATABASE_URL it uses the embedded database in /data.
FROM oven/bun:1.4-debian AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# patch-package applies these after the install (postinstall): fixes to dependencies (README, Reliability).
COPY patches ./patches
RUN bun install --production --frozen-lockfile || bun install --production

FROM oven/bun:1.4-debian
WORKDIR /app
# HOST=0.0.0.0: in a container the server must accept connections from outside it (the default, localhost, would not).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY core ./core
COPY db ./db
COPY modules ./modules
RUN mkdir -p /data && chown -R bun:bun /data
USER bun
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s CMD bun -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then(r => process.exit(r.ok ? 0 : 1)).catch(() => process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["bun", "core/main.ts"]
