#!/bin/sh
# `npm start`: rebuild when the compiled service is missing or stale, then become the server. `exec`
# matters: npm forwards SIGTERM and SIGINT to its child process only, so its child must be the server
# itself, not a shell that would die and leave the server orphaned.
cd "$(dirname "$0")/.." || exit 1
scripts/build-if-stale.sh || exit 1
# glibc's malloc serves requests of 128 KiB and more from mmap instead of its arenas, so what V8's
# background threads free goes back to the system, and less stays resident under load than with
# glibc's own sliding threshold. Not below 64 KiB: Node.js allocates a 64 KiB buffer for each socket
# read, and below that each one is mapped, faulted in and unmapped, which costs CPU on every answer.
# An operator's own setting wins; musl-based images ignore it.
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
# A young generation of 2 MB per semi-space (V8's default is 16 MB): almost everything a request
# allocates dies young, so a small one costs a few per cent more instructions per request and holds
# less under load.
# An old generation allowed to grow by 20 % over what the last full collection kept, instead of V8's
# up to 300 % on a machine with a few GB: otherwise, under steady traffic, the little a request
# leaves there piles up as garbage for a minute or more before V8's first full collection.
# No Maglev, V8's middle optimising tier (Node.js lines that have it off accept the flag): functions
# go from the baseline tier straight to TurboFan. Maglev compiles on V8's background threads, and
# what it allocates there stays in glibc's arenas; once warm the code reaches TurboFan all the same.
# No allocation-site pretenuring: V8 would otherwise, in some runs, decide from early survival that a
# hot allocation site's objects live long and allocate them straight in the old generation, where
# the answers' short-lived objects then cost full collections: such a run counts far more
# instructions per request than another run of the same build.
# What each flag saves and costs, by Node.js line: bench/README.md, "Memory".
exec node --max-semi-space-size=2 --heap-growing-percent=20 --no-maglev --no-allocation-site-pretenuring dist/server.js
