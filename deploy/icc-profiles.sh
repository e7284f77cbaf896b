#!/bin/sh
# The press profiles the print PDF converts to and embeds (docs/exports.md, "Profiles"), taken
# from Debian's icc-profiles package. That package is in Debian's non-free section (its
# profiles may be shared and embedded but not altered or sold), which this machine's apt
# sources need not list: a private apt state in the target folder lists non-free for this one
# download, the system's sources and package database are left alone, nothing is installed.
# Usage: deploy/icc-profiles.sh TARGET_FOLDER. Idempotent: does nothing when the files exist.
set -eu
target=${1:?usage: icc-profiles.sh TARGET_FOLDER}
files="ISOcoated_v2_eci.icc PSOcoated_v3.icc GRACoL2006_Coated1v2.icc SWOP2006_Coated3v2.icc"
missing=
for file in $files; do [ -s "$target/$file" ] || missing=1; done
[ -z "$missing" ] && [ -s "$target/copyright" ] && exit 0

. /etc/os-release
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$target"
echo "deb http://deb.debian.org/debian ${VERSION_CODENAME:-bookworm} non-free" >"$state/sources.list"
apt_private() {
	apt-get -q -o Dir::Etc::SourceList="$state/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" \
		-o Dir::State::Status=/dev/null -o Debug::NoLocking=1 \
		-o APT::Sandbox::User="$(id -un)" "$@"
}
echo "fetching the press profiles from Debian's icc-profiles package (non-free) into $target"
apt_private update >/dev/null
(cd "$state" && apt_private download icc-profiles >/dev/null)
dpkg-deb -x "$state"/icc-profiles_*.deb "$state/root"
for file in $files; do cp "$state/root/usr/share/color/icc/$file" "$target/"; done
cp "$state/root/usr/share/doc/icc-profiles/copyright" "$target/copyright"
