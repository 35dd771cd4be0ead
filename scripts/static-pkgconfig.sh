#!/bin/sh
# static-pkgconfig.sh DIR: pkg-config files in DIR that make SwiftPM link libdbus, libyaml and zlib statically.
#
# The release binaries (make release, make install, make deb, make wheel) then need no library a Debian 12
# machine may lack: what stays shared is glibc, libstdc++ and libgcc (which the static Swift runtime calls) and
# libsystemd (which libdbus calls for socket activation), all in every Debian installation (priority required).
# How: SwiftPM asks pkg-config for each system library's flags (Package.swift: dbus-1, yaml-0.1, zlib), and the
# linker takes the first libNAME it finds along the -L folders in order; DIR/lib holds only the archives
# (links to the -dev packages' libNAME.a), so -ldbus-1, -lyaml and -lz resolve to them. The libraries their
# archives call come from pkg-config --static (libdbus: -lsystemd, from libsystemd-dev).
# It prints nothing: its caller's $(...) reads only swift build's output.
set -eu
out=$1
mkdir -p "$out/lib"
for spec in dbus-1:libdbus-1.a yaml-0.1:libyaml.a zlib:libz.a; do
    name=${spec%%:*} archive=${spec#*:}
    libdir=$(pkg-config --variable=libdir "$name")
    if [ ! -f "$libdir/$archive" ]; then
        echo "static-pkgconfig: $libdir/$archive is missing (the $name -dev package ships it; make deps installs it)" >&2
        exit 1
    fi
    ln -sf "$libdir/$archive" "$out/lib/$archive"
    cat > "$out/$name.pc.tmp" <<PC
Name: $name
Description: $name, linked statically from $libdir/$archive (scripts/static-pkgconfig.sh)
Version: $(pkg-config --modversion "$name")
Libs: -L$out/lib $(pkg-config --libs-only-l --static "$name")
Cflags: $(pkg-config --cflags "$name")
PC
    mv "$out/$name.pc.tmp" "$out/$name.pc"
done
