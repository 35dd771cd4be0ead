#!/usr/bin/env bash
# build-wheel.sh BUILT OUT: a wheel of the Python package (clients/python: the client, the Adapter API and the
# pytest plugin) that carries the release binaries in BUILT, written to OUT/traitd-VERSION-py3-none-PLATFORM.whl.
#
# After `pip install` of it, traitd, traitctl and traitd-adapters are commands (console scripts that run the
# carried binaries: traitd/_binaries.py) and the pytest plugin uses the carried binaries by default. Nothing
# else of Swift's is needed: make wheel links the Swift runtime, libdbus, libyaml and zlib statically
# (scripts/static-pkgconfig.sh); this script refuses binaries that need any shared library but glibc's,
# libstdc++, libgcc and libsystemd (every Debian installation has them) and prints what they need.
# The platform tag is linux_ARCH, not manylinux: it is built and tried on Debian 12 (glibc 2.36).
set -euo pipefail
cd "$(dirname "$0")/.."
built=$1 out=$2
say() { echo "build-wheel: $*"; }
tools=(traitd traitctl traitd-adapters)
for tool in "${tools[@]}"; do
    [ -x "$built/$tool" ] || { say "$built/$tool is missing (make wheel builds it)"; exit 2; }
done
allowed='^(libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libsystemd\.so\.0|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1)$'
needed=$(for tool in "${tools[@]}"; do readelf -d "$built/$tool" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; done | sort -u)
if unexpected=$(grep -vE "$allowed" <<<"$needed"); then
    say "the binaries need shared libraries a machine may lack: $(tr '\n' ' ' <<<"$unexpected")(make wheel links them statically)"
    exit 1
fi
say "the binaries need only: $(tr '\n' ' ' <<<"$needed")"

stage=.build/wheel-stage
rm -rf "$stage"
mkdir -p "$stage/traitd/bin" "$out"
cp clients/python/pyproject.toml clients/python/README.md "$stage/"
cp clients/python/traitd/*.py clients/python/traitd/py.typed "$stage/traitd/"
for tool in "${tools[@]}"; do
    install -m 0755 "$built/$tool" "$stage/traitd/bin/$tool"
    strip --strip-unneeded "$stage/traitd/bin/$tool"
done
cp packaging/wheel/setup.py "$stage/"
# The staged pyproject: the binaries as package data, and a command for each.
sed -i 's|^traitd = \["py.typed"\]$|traitd = ["py.typed", "bin/*"]|' "$stage/pyproject.toml"
grep -q '"bin/\*"' "$stage/pyproject.toml" || { say "clients/python/pyproject.toml: no package-data line to extend"; exit 1; }
cat >> "$stage/pyproject.toml" <<'TOML'

[project.scripts]
traitd = "traitd._binaries:traitd"
traitctl = "traitd._binaries:traitctl"
traitd-adapters = "traitd._binaries:traitd_adapters"
TOML
rm -f "$out"/traitd-*.whl
/usr/bin/python3 -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir "$out" "$stage" 2>&1 | grep -v "^$" || true
wheel=$(ls "$out"/traitd-*.whl 2>/dev/null | head -n 1)
[ -n "$wheel" ] || { say "pip wheel wrote no wheel"; exit 1; }
say "wrote $wheel ($(du -h "$wheel" | cut -f1))"
