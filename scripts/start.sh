#!/bin/sh
# `npm start`: rebuild when the compiled service is missing or stale, then become the server. `exec`
# matters: npm forwards SIGTERM and SIGINT to its child process only, so its child must be the server
# itself, not a shell that would die and leave the server orphaned.
cd "$(dirname "$0")/.." || exit 1
scripts/build-if-stale.sh || exit 1
# glibc's malloc serves requests of 128 KiB and more from mmap instead of its arenas, so what V8's
# background threads free goes back to the system: 5-12 MB less resident under load than glibc's
# own sliding threshold (Node.js 20 to 26, one run each). Not lower: Node.js 24 and 26 allocate a
# 64 KiB buffer for each socket read, and at 32 KiB (this script's value until 27 November) each
# one was mapped, faulted in and unmapped: 2.4-3.4 page faults and about a fifth more CPU per
# calculate answer on Node.js 26, for 3 MB less. An operator's own setting wins; musl-based images
# ignore it.
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
# A young generation of 2 MB per semi-space (V8's default is 16 MB; this script set 8 until
# 27 November): almost everything a request allocates dies young, so a small one costs 2-6 % more
# instructions per request (bench:instructions, two runs) and holds about 16 MB less under load.
# Largest resident size over 60 s of 50-connection load, against 8 MB: 99 against 115 MB on
# Node.js 22, 113 against 125 on 24, 121 against 137 on 26 (bench/README.md, "Memory").
# An old generation allowed to grow by 20 % over what the last full collection kept, instead of V8's
# up to 300 % on a machine with a few GB: under steady traffic the little a request leaves there
# piled up as garbage for a minute or more before V8's first full collection (with an 8 MB young
# generation: 126 against 145 MB on Node.js 24, 137 against 227 MB on Node.js 26).
# No Maglev, V8's middle optimising tier (on by default since Node.js 22; Node.js 20 accepts the
# flag and has it off): functions go from the baseline tier straight to TurboFan. Maglev compiles
# on V8's background threads, and what it allocated there stayed in glibc's arenas (8.3 against
# 1.1 MB in one reading on Node.js 26, and 2 MB of the binary's pages less). Largest resident size
# over 60 s of load: 105 against 113-117 MB on Node.js 26, 102 against 108 on 24, 90 against 91 on
# 22, for 0.7 % more instructions per request once warm (Node.js 22, bench:instructions).
exec node --max-semi-space-size=2 --heap-growing-percent=20 --no-maglev dist/server.js
