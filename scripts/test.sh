#!/usr/bin/env bash
# The README's test command (and CI's): installs what is missing, builds, and runs every test.
#  0. the real MySQL client programs the integration tests drive (tests/clients/build.sh);
#  1. release build of the daemons: the tests that need the release build itself (label
#     release: the README's run command, the busy-neighbour test, a scheduling test, and the
#     containers test, which puts the release binaries in an image);
#  2. AddressSanitizer + UBSan build: every other test — the unit tests and fuzz corpora, and
#     every integration and fault test with real processes and real clients, daemons included
#     (each runs once, under the sanitizers, where a memory error would show);
#  3. ThreadSanitizer build: the concurrency unit tests (event loop, cross-thread posting, the
#     shared-memory rings, doorbells and in-process queues of the native transports, an LDM
#     on its own thread, the cross-thread start-progress and arbitration handles, the redo logs
#     and their writer thread).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
# Real MySQL clients for the integration tests (Go, Java, Python drivers) into build/clients.
tests/clients/build.sh

cmake --preset release
cmake --build --preset release --target shoal_daemons run_command_test
ctest --test-dir build -L '^release$' --output-on-failure

cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --test-dir build/asan -LE '^release$' --output-on-failure -j2

cmake --preset tsan >/dev/null
cmake --build --preset tsan --target common_test transport_test ldm_worker_test start_progress_test \
  arbitrator_test redo_test epoch_clock_test sql_eval_test access_test
ctest --test-dir build/tsan -j2 \
  -R '^(common_test|transport_test|ldm_worker_test|start_progress_test|arbitrator_test|redo_test|epoch_clock_test|sql_eval_test|access_test)$' \
  --output-on-failure \
  --repeat until-fail:10
