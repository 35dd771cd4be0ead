#!/usr/bin/env bash
# Builds Benchmarks/KiwiPeer/kiwi_peer.cpp against kiwi's C++ headers from the kiwisolver sdist, downloaded once
# into .build/kiwi-sdist (pip download --no-binary :all:). Prints the path of the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.build/kiwi-sdist
binary=.build/kiwi-peer
if [ -x "$binary" ] && [ "$binary" -nt Benchmarks/KiwiPeer/kiwi_peer.cpp ]; then
    echo "$binary"
    exit 0
fi
mkdir -p "$dir"
if ! ls "$dir"/kiwisolver-*/kiwi/kiwi.h >/dev/null 2>&1; then
    echo "downloading the kiwisolver sdist into $dir ..." >&2
    python3 -m pip download --quiet --no-binary :all: --no-deps kiwisolver -d "$dir" >&2
    tar -xzf "$dir"/kiwisolver-*.tar.gz -C "$dir"
fi
headers=$(ls -d "$dir"/kiwisolver-*/ | head -n 1)
command -v g++ >/dev/null || { echo "g++ is needed to build kiwi's C++ core (apt install g++)" >&2; exit 1; }
g++ -O2 -std=c++17 -I "$headers" Benchmarks/KiwiPeer/kiwi_peer.cpp -o "$binary"
echo "$binary"
