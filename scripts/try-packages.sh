#!/usr/bin/env bash
# try-packages.sh DIR: the Debian package and the wheel in DIR (make deb, make wheel), each installed into a
# place of its own, then the pytest plugin's own tests (clients/python/tests) run against what was installed,
# with no Swift on PATH.
#
# - The package: its dependencies must be installable here (apt-get --simulate), then dpkg --root installs it
#   into a root of its own (its maintainer script honours DPKG_ROOT), and the tests use that root's binaries and
#   that root's Python package (/usr/share/traitd/python). Last, dpkg --purge takes it out again: nothing stays.
# - The wheel: pip installs it into a fresh virtual environment (--no-index: dbus-fast comes from Debian's
#   python3-dbus-fast through --system-site-packages), its commands run, and the tests run with the venv's
#   pytest, whose plugin finds the binaries the wheel carries (no --traitd-bin, no TRAITD_BIN_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
say() { echo "try-packages: $*"; }
deb=$(ls "$dir"/traitd_*.deb | head -n 1)
wheel=$(ls "$dir"/traitd-*.whl | head -n 1)
plain=/usr/sbin:/usr/bin:/sbin:/bin
if PATH=$plain command -v swift >/dev/null; then
    say "swift is on $plain: this check needs a PATH without Swift"; exit 1
fi
unset TRAITD_BIN_DIR PYTHONPATH
tests=$PWD/clients/python/tests

say "$deb: can this machine install its dependencies?"
apt-get install --simulate --no-install-recommends "$PWD/$deb" | grep -E "^Inst traitd " \
    || { say "apt cannot install $deb's dependencies here"; exit 1; }
root=$PWD/.build/try-deb
rm -rf "$root"
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info" "$root/etc"
touch "$root/var/lib/dpkg/status"
say "dpkg --root $root -i $deb"
# The root has no dpkg database of the dependencies (they are this machine's, checked above): --force-depends.
dpkg --root="$root" --force-depends --force-script-chrootless --log=/dev/null -i "$deb" 2>&1 \
    | grep -vE "^ traitd depends on|^  Package .* is not installed|^\s*$|dependency problems, but configuring"
dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Package} ${Version} ${Status}\n' traitd
grep -q '^traitd:' "$root/etc/passwd" || { say "the package's postinst made no traitd user in $root/etc/passwd"; exit 1; }
PATH=$plain "$root/usr/bin/traitctl" --version
say "the plugin's tests against $root/usr/bin, PATH=$plain"
(cd "$root" && PATH=$plain PYTHONPATH=$root/usr/share/traitd/python PYTHONDONTWRITEBYTECODE=1 \
    /usr/bin/python3 -c 'import traitd, sys; sys.exit(0 if traitd.__file__.startswith(sys.argv[1]) else f"traitd from {traitd.__file__}")' "$root" \
 && PATH=$plain PYTHONPATH=$root/usr/share/traitd/python PYTHONDONTWRITEBYTECODE=1 \
    /usr/bin/python3 -m pytest -p traitd.pytest_plugin -p no:cacheprovider -q "$tests" --traitd-bin "$root/usr/bin")
dpkg --root="$root" --force-script-chrootless --log=/dev/null --purge traitd
left=$(find "$root" -type f ! -path "$root/var/*" ! -path "$root/etc/*" | head -n 5)
[ -z "$left" ] || { say "dpkg --purge left files behind: $left"; exit 1; }
say "the package: installed, tested, purged"

venv=$PWD/.build/try-wheel
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
say "pip install $wheel into $venv"
"$venv/bin/pip" install --quiet --no-index "$PWD/$wheel"
PATH=$venv/bin:$plain traitctl --version
say "traitctl devices (the catalog, no daemon): $(PATH=$venv/bin:$plain traitctl devices | wc -l) lines"
say "the plugin's tests with the wheel's binaries, PATH=$venv/bin:$plain"
(cd "$venv" && PATH=$venv/bin:$plain PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -p no:cacheprovider -q "$tests")
say "the wheel: installed, tested"
