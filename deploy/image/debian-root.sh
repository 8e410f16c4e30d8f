# Sourced by build-base.sh and build-postgres.sh: what both do around mmdebstrap.
#   reuse_or_begin IMAGE   prints IMAGE and exits when the store has it (unless REBUILD is set);
#                          otherwise makes $work, a folder removed at exit.
#   keep_only IMAGE        removes the other tags of IMAGE's repository (older recipes), so a
#                          CI machine's disk does not fill with them.
#   debian_root TAR ARGS…  mmdebstrap of bookworm (minbase) into TAR, from Debian's mirrors with
#                          updates and security fixes, ARGS passed on (--include, hooks).
export CONTAINERS_CONF="${CONTAINERS_CONF:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
SUITE=bookworm

reuse_or_begin() {
  if [ -z "${REBUILD:-}" ] && podman image exists "$1"; then
    echo "$1"
    exit 0
  fi
  work="$(mktemp -d /var/tmp/rehearse-image.XXXXXX)"
  trap 'rm -rf "$work"' EXIT
  echo "building $1 from $MIRROR ($SUITE) …" >&2
}

debian_root() {
  local tar="$1"
  shift
  mmdebstrap --quiet --variant=minbase "$@" \
    --customize-hook="rm -rf \"\$1/var/lib/apt/lists\"/* \"\$1/var/cache/apt\"/*.bin \"\$1/usr/share/doc\"/* \"\$1/usr/share/man\"/*" \
    "$SUITE" "$tar" \
    "deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main" "deb $SECURITY_MIRROR $SUITE-security main"
}

keep_only() {
  local repository="${1%:*}" other
  for other in $(podman images --format '{{.Repository}}:{{.Tag}}' "$repository"); do
    [ "$other" = "$1" ] || podman untag "$other" "$other" >/dev/null 2>&1 || true
  done
  podman image prune --force >/dev/null 2>&1 || true
}
