#!/usr/bin/env bash
# make docs: DocC archives of the three libraries (TraitClient, Cassowary, Layout) under .build/docs, with
# swift-docc-plugin; each with its article, and a line on how many of its public symbols are documented.
# Warnings (an unresolved symbol link in a comment or an article) fail the build.
set -euo pipefail
swift="${1:-swift}"
out=.build/docs
mkdir -p "$out"
for target in TraitClient Cassowary Layout; do
    "$swift" package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
        --output-path "$out/$target.doccarchive" --warnings-as-errors \
        --experimental-documentation-coverage --coverage-summary-level brief 2>&1 | grep -v "^$" | tail -n 12
done
echo "docs: $out/TraitClient.doccarchive, $out/Cassowary.doccarchive, $out/Layout.doccarchive"
