#!/usr/bin/env bash
# Generates and builds (no GPU needed) what run.sh runs: every sm_90a
# example after issue 34 (role families: the ping-pong GEMMs and attention
# forward write their consumer warpgroups as one family body). The same
# steps and variant lists as issue 32's run, so this calls its script.
set -euo pipefail
exec bash "$(dirname "$0")/../issue32_2026-12-02/gen.sh" "$@"
