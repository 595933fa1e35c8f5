#!/usr/bin/env bash
# Runs a command on a machine where some files do not exist, leaving the machine as it is: in a
# private mount namespace, each file's directory is overlaid with a whiteout for it, so only the
# command (and what it starts) sees them gone. .ci/run uses it for a newcomer's source build
# without libdeflate-dev, and for a binary run without libdeflate.so.0. Needs root (unshare).
#
# usage: scripts/ci/without.sh FILE... -- COMMAND [ARG...]
set -euo pipefail

if [[ ${1:-} == --inside ]]; then
    scratch=$2
    shift 2
    declare -A hidden
    while [[ $1 != -- ]]; do
        hidden[$(dirname "$1")]+=" $(basename "$1")"
        shift
    done
    shift
    mount -t tmpfs bundlepress-without "$scratch"
    layer=0
    for directory in "${!hidden[@]}"; do
        layer=$((layer + 1))
        mkdir -p "$scratch/$layer/upper" "$scratch/$layer/work"
        for name in ${hidden[$directory]}; do mknod "$scratch/$layer/upper/$name" c 0 0; done
        mount -t overlay overlay -o "lowerdir=$directory,upperdir=$scratch/$layer/upper,workdir=$scratch/$layer/work" "$directory"
    done
    exec "$@"
fi

if [[ $# -lt 2 || " $* " != *" -- "* ]]; then
    echo "usage: $0 FILE... -- COMMAND [ARG...]" >&2
    exit 64
fi
scratch=$(mktemp -d)
trap 'rmdir "$scratch"' EXIT
unshare --mount --propagation private "$0" --inside "$scratch" "$@"
