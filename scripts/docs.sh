#!/usr/bin/env bash
# make docs: DocC archives of the three libraries (TraitClient, Cassowary, Layout) under .build/docs, with
# swift-docc-plugin; each with its article, and a line on how many of its public symbols are documented.
# Warnings (an unresolved symbol link in a comment or an article) fail the build, and so does a public symbol
# without a documentation comment (scripts/doc-coverage.py names it).
set -euo pipefail
swift="${1:-swift}"
out=.build/docs
mkdir -p "$out"
for target in TraitClient Cassowary Layout; do
    "$swift" package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
        --output-path "$out/$target.doccarchive" --warnings-as-errors \
        --experimental-skip-synthesized-symbols --experimental-documentation-coverage --coverage-summary-level brief 2>&1 | grep -v "^$" | tail -n 12
done
scripts/doc-coverage.py "$out/TraitClient.doccarchive" "$out/Cassowary.doccarchive" "$out/Layout.doccarchive"
echo "docs: $out/TraitClient.doccarchive, $out/Cassowary.doccarchive, $out/Layout.doccarchive"
