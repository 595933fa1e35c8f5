#!/usr/bin/env bash
# Checks that an ELF executable needs nothing at run time but glibc: its dynamic section may
# name only glibc's own libraries and libgcc_s.so.1 (no libswiftCore.so, libstdc++, libz, …),
# and no RPATH/RUNPATH (which would point into a toolchain). Prints the newest glibc symbol version it
# needs (e.g. 2.34: the oldest glibc it runs on) on standard output; the libraries go to
# standard error. Exits 1 naming what else it needs.
#
# usage: scripts/release/check-linkage.sh BINARY
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 BINARY" >&2
    exit 64
fi
binary=$1
if ! dynamic=$(readelf --dynamic --wide "$binary" 2>&1); then
    echo "check-linkage: $binary is not an ELF file readelf can read: $dynamic" >&2
    exit 1
fi

# The libraries glibc itself installs (libc6 on Debian), and libgcc_s.so.1: glibc loads it
# itself (pthread_cancel, backtrace), so every glibc system has it (Debian's libc6 depends on
# libgcc-s1, Fedora's glibc on libgcc). Linking libgcc's unwinder statically instead would need
# glibc 2.35 (_dl_find_object) and leave out Amazon Linux 2023 and RHEL 9 (2.34).
glibc_libraries=" ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libutil.so.1 libresolv.so.2 libanl.so.1 libgcc_s.so.1 "

needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' <<<"$dynamic")
foreign=()
for library in $needed; do
    [[ $glibc_libraries == *" $library "* ]] || foreign+=("$library")
done
echo "check-linkage: $binary needs: ${needed//$'\n'/ }" >&2

status=0
if [[ ${#foreign[@]} -gt 0 ]]; then
    echo "check-linkage: $binary needs libraries that are not part of glibc: ${foreign[*]}" \
        "(link them statically: see scripts/release.sh)" >&2
    status=1
fi
if paths=$(grep -E '\((RPATH|RUNPATH)\)' <<<"$dynamic"); then
    echo "check-linkage: $binary has a library search path baked in: $paths" >&2
    status=1
fi

glibc=$(readelf --version-info --wide "$binary" | grep -o 'Name: GLIBC_[0-9.]*' | sed 's/Name: GLIBC_//' | sort -uV | tail -1)
if [[ -z $glibc ]]; then
    echo "check-linkage: $binary names no GLIBC_ symbol version: not a dynamically linked glibc executable" >&2
    status=1
fi
echo "check-linkage: $binary runs on glibc $glibc or newer" >&2
echo "$glibc"
exit $status
