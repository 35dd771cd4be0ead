#!/usr/bin/env bash
# The fresh-clone condition: clones the committed repository into an empty temporary folder (nothing beside the
# clone, as a user who just ran `git clone` has) and builds and runs the unit tests there. A test or build that
# reads a file outside the repository (such as ../shared) fails here.
# Usage: scripts/fresh-clone-check.sh [SWIFT]
set -euo pipefail
swift="${1:-swift}"
repository="$(cd "$(dirname "$0")/.." && pwd)"
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
git clone --quiet --no-hardlinks "$repository" "$empty/traitd"
cd "$empty/traitd"
echo "fresh clone of $(git rev-parse --short HEAD) in $empty/traitd (nothing beside it: $(ls "$empty"))"
"$swift" build --build-tests
# The unit tests of every module (the integration tests run in `make test`; they need no files outside either).
"$swift" test --skip-build --filter 'TraitModelTests|CassowaryTests|LayoutTests|AdaptersTests|TransitionEngineTests|TraitServiceTests|DBusTests'
