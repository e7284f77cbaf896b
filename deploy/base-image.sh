#!/usr/bin/env bash
# Builds the image's base from Debian's packages, for machines that reach Debian's mirror but no
# container registry: debootstrap --variant=minbase bookworm plus Python 3.11 and venv, imported
# into podman as localhost/wordcloud-base:bookworm, the stand-in for python:3.11-slim-bookworm
# (the Containerfile only needs `python3 -m venv` and apt-get from either).
#
# The root file system is kept as a tarball in $CACHE_DIR (default ~/.cache/wordcloud-deploy),
# so a second run (or CI with that folder cached) imports it again without debootstrap.
# Usage: deploy/base-image.sh [--rebuild]     (root; debootstrap needs it)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
IMAGE="${BASE_IMAGE:-localhost/wordcloud-base:bookworm}"
CACHE_DIR="${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wordcloud-deploy}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
tarball="$CACHE_DIR/wordcloud-base-bookworm.tar"

if [ "${1:-}" = "--rebuild" ]; then
    rm -f "$tarball"
elif podman image exists "$IMAGE"; then
    echo "base image $IMAGE already present"
    exit 0
fi

if [ ! -s "$tarball" ]; then
    mkdir -p "$CACHE_DIR"
    root="$(mktemp -d "$CACHE_DIR/rootfs.XXXXXX")"
    trap 'rm -rf "$root"' EXIT
    echo "debootstrap bookworm (minbase) into $root"
    debootstrap --variant=minbase \
        --include=python3,python3-venv,ca-certificates \
        bookworm "$root" "$MIRROR" >/dev/null
    # The same package sources as the official Debian images: updates and security fixes too.
    cat >"$root/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
    chroot "$root" apt-get clean
    rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
    tar -C "$root" --numeric-owner -cf "$tarball.part" .
    mv "$tarball.part" "$tarball"
fi

podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["python3"]' \
    "$tarball" "$IMAGE" >/dev/null
echo "imported $IMAGE from $tarball"
