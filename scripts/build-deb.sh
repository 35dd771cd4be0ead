#!/usr/bin/env bash
# build-deb.sh BUILT OUT: a Debian package of the release binaries in BUILT (make deb builds them), written to
# OUT/traitd_VERSION_ARCH.deb and checked with lintian (no error, no warning).
#
# Its files are exactly what `make install PREFIX=/usr` puts in place (install-files, which PackagingTests check):
# the binaries (stripped), man pages (compressed, as Debian policy has them), completions, systemd units, D-Bus
# files, docs, traitd-view, and the Python package in /usr/share/traitd/python. Its control file, changelog and
# copyright come from packaging/debian; Depends from dpkg-shlibdeps, which reads the binaries: with libdbus,
# libyaml and zlib linked statically (scripts/static-pkgconfig.sh) they need glibc, libstdc++, libgcc and
# libsystemd only. No Swift toolchain is needed to install or run it. Built with dpkg-deb, not dpkg-buildpackage:
# the binaries are built by make, as for make install, and are not built again inside a source package.
set -euo pipefail
cd "$(dirname "$0")/.."
built=$1 out=$2
say() { echo "build-deb: $*"; }
for tool in traitd traitctl traitd-adapters generate-manual; do
    [ -x "$built/$tool" ] || { say "$built/$tool is missing (make deb builds it)"; exit 2; }
done
version=$("$built/traitd" --version)
arch=$(dpkg --print-architecture)
stage=.build/deb-stage
root=$stage/root
rm -rf "$stage"
mkdir -p "$root/DEBIAN" "$out"

say "installing into $root (PREFIX=/usr)"
make --no-print-directory install-files PREFIX=/usr DESTDIR="$PWD/$root" BUILT="$built" GENERATED="$stage/generated" >/dev/null
for tool in traitd traitctl traitd-adapters; do
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$tool"
done
find "$root/usr/share/man" -type f -exec gzip -9n {} +
doc=$root/usr/share/doc/traitd
install -m 0644 packaging/debian/copyright "$doc/copyright"
sed "s/@VERSION@/$version/" packaging/debian/changelog | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"
install -m 0755 packaging/debian/postinst "$root/DEBIAN/postinst"

# Depends: what the binaries are linked against, as Debian's own packages are given it.
mkdir -p "$stage/debian"
printf 'Source: traitd\n\nPackage: traitd\nArchitecture: any\n' > "$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O root/usr/bin/traitd root/usr/bin/traitctl root/usr/bin/traitd-adapters \
    | sed -n 's/^shlibs:Depends=//p')
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@INSTALLED_SIZE@/$size/" \
    packaging/debian/control.in > "$root/DEBIAN/control"
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

deb=$out/traitd_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
say "wrote $deb ($(du -h "$deb" | cut -f1)); Depends: $(dpkg-deb -f "$deb" Depends)"
say "lintian"
lintian --fail-on error,warning --info "$deb"
say "lintian: no error, no warning"
