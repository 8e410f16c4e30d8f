#!/usr/bin/env bash
# Builds the Rehearse image with Podman and no registry: the base from Debian's mirrors and the
# npm registry (build-base.sh; npm as the lockfile was written with), then deploy/Dockerfile on top of it.
#
# Usage: deploy/image/build.sh [tag]     (default localhost/rehearse:<package.json version>)
#
# A machine whose npm traffic passes a TLS-inspecting proxy names its CA bundle in NPM_CA_FILE
# (default: NODE_EXTRA_CA_CERTS when set); it reaches `npm ci` as a build secret and stays out of
# every layer of the image.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"

# One build at a time on a machine (tests in parallel processes ask for the same image).
exec 9>/var/tmp/rehearse-image-build.lock
flock 9

version="$(node -p "require('$root/package.json').version ?? require('$root/apps/server/package.json').version")"
tag="${1:-localhost/rehearse:$version}"
base="$("$here/build-base.sh")"

# In a git checkout the image is named by its sources too (tracked files and their changes): an
# image built from the same sources is reused unless REBUILD is set.
source_tag=""
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  digest="$( (cd "$root" && git ls-files -s && git diff HEAD --binary && git ls-files -o --exclude-standard | xargs -r sha256sum) | sha256sum | cut -c1-16)"
  source_tag="localhost/rehearse:src-$digest"
  if [ -z "${REBUILD:-}" ] && podman image exists "$source_tag"; then
    podman tag "$source_tag" "$tag"
    echo "$tag"
    exit 0
  fi
fi

secret=()
ca="${NPM_CA_FILE:-${NODE_EXTRA_CA_CERTS:-}}"
if [ -n "$ca" ] && [ -s "$ca" ]; then secret=(--secret "id=npm-ca,src=$ca"); fi

# --format docker keeps the HEALTHCHECK (OCI images have no field for it).
podman build --format docker --network host "${secret[@]}" \
  --build-arg "BASE_IMAGE=$base" \
  -f "$root/deploy/Dockerfile" --ignorefile "$root/deploy/Dockerfile.dockerignore" \
  -t "$tag" ${source_tag:+-t "$source_tag"} "$root" >&2
# Earlier builds of other sources go (their layers with them), so a CI machine's disk does not fill.
for old in $(podman images --format '{{.Repository}}:{{.Tag}}' localhost/rehearse | grep ':src-' | grep -vx "$source_tag"); do
  podman untag "$old" "$old" >/dev/null 2>&1 || true
done
podman image prune --force >/dev/null 2>&1 || true
echo "$tag"
