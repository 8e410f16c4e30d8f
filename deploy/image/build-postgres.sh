#!/usr/bin/env bash
# A PostgreSQL image for machines without a registry (where docker.io/library/postgres cannot be
# pulled): Debian's postgresql from Debian's mirrors, with an entry point that takes the official
# image's POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB and keeps its data in
# /var/lib/postgresql/data. The compose file uses it through POSTGRES_IMAGE.
#
# Usage: deploy/image/build-postgres.sh     prints the image name it built or found
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/debian-root.sh"

recipe_digest="$(cat "$0" "$here/debian-root.sh" "$here/postgres-entrypoint.sh" | sha256sum | cut -c1-12)"
image="localhost/rehearse-postgres:15-$recipe_digest"
reuse_or_begin "$image"
debian_root "$work/rootfs.tar" --include=postgresql-15,tini \
  --customize-hook="copy-in $here/postgres-entrypoint.sh /usr/local/bin" \
  --customize-hook="chmod 755 \"\$1/usr/local/bin/postgres-entrypoint.sh\""
podman import --quiet \
  --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'EXPOSE 5432' \
  --change 'ENTRYPOINT ["tini", "--", "postgres-entrypoint.sh"]' \
  "$work/rootfs.tar" "$image" >/dev/null
keep_only "$image"
echo "$image"
