#!/usr/bin/env bash
# The README's run command: installs what is missing, builds the daemons (release), and runs the embedded
# cluster in a box in the foreground — one mgmd, two data nodes, two routers on 127.0.0.1.
# Arguments go to shoal-mgmd (--run-dir, --port, --base-port, --config-file ...; see
# build/bin/shoal-mgmd --help). Ctrl-C or SIGTERM stops every process it started.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target shoal_daemons
exec build/bin/shoal-mgmd "$@"
