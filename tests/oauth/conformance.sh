#!/usr/bin/env bash
# Runs the MCP conformance suite's authorization-server scenarios against the app (embedded
# database, loopback port), consenting as a test person. Needs the npm registry the first time.
# The tool needs Node 22 (fs.globSync); it runs under Bun here, which has it.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LOG_LEVEL="${LOG_LEVEL:-warn}" DEMO=off
exec node_modules/.bin/bun tests/oauth/conformance.ts "$@"
