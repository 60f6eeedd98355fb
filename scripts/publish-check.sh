#!/bin/sh
# Checks the crate as it would be published, without publishing it:
#
#   scripts/publish-check.sh [--allow-dirty]
#
# `cargo publish --dry-run --locked` packs the files a publish would upload (`cargo
# package --list` shows them), checks the metadata and builds the packed copy with the
# locked dependencies, all from the crates.io registry and nothing else on the network;
# nothing is uploaded. It refuses uncommitted changes unless given --allow-dirty. Not a
# step of .ci/run (it builds the crate once more): run it before a release and after
# changing Cargo.toml. The last line says whether it passed.
set -eu
cd "$(dirname "$0")/.."
cargo publish --dry-run --locked "$@"
echo "publish-check: the packed crate builds"
