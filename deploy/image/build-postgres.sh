#!/usr/bin/env bash
# A PostgreSQL image for machines without a registry (where docker.io/library/postgres cannot be
# pulled): Debian's postgresql from Debian's mirrors, with an entry point that takes the official
# image's POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB and keeps its data in
# /var/lib/postgresql/data. The compose file uses it through POSTGRES_IMAGE.
#
# Usage: deploy/image/build-postgres.sh     prints the image name it built or found
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"

recipe_digest="$(sha256sum "$0" "$here/postgres-entrypoint.sh" | sha256sum | cut -c1-12)"
image="localhost/rehearse-postgres:15-$recipe_digest"
if [ -z "${REBUILD:-}" ] && podman image exists "$image"; then
  echo "$image"
  exit 0
fi

work="$(mktemp -d /var/tmp/rehearse-postgres.XXXXXX)"
trap 'rm -rf "$work"' EXIT
echo "building $image …" >&2
mmdebstrap --quiet --variant=minbase --include=postgresql-15,tini \
  --customize-hook="copy-in $here/postgres-entrypoint.sh /usr/local/bin" \
  --customize-hook="chmod 755 \"\$1/usr/local/bin/postgres-entrypoint.sh\"" \
  --customize-hook="rm -rf \"\$1/var/lib/apt/lists\"/* \"\$1/usr/share/doc\"/* \"\$1/usr/share/man\"/*" \
  bookworm "$work/rootfs.tar" \
  "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" "deb $SECURITY_MIRROR bookworm-security main"
podman import --quiet \
  --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'EXPOSE 5432' \
  --change 'ENTRYPOINT ["tini", "--", "postgres-entrypoint.sh"]' \
  "$work/rootfs.tar" "$image" >/dev/null
echo "$image"
