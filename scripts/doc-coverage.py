#!/usr/bin/env python3
"""make docs: fail when a public symbol of a DocC archive has no documentation comment.

Reads each archive's documentation-coverage.json (written by --experimental-documentation-coverage) and lists
the symbols without an abstract. `init(rawValue:)` of a raw-value enum and `init(from:)` of a Codable type are
declared by the compiler, so there is no comment to write for them; they are the only ones allowed.
"""
import json
import sys

COMPILER_DECLARED = ("/init(rawValue:)", "/init(from:)")

def undocumented(archive):
    with open(f"{archive}/documentation-coverage.json") as f:
        entries = json.load(f)
    for entry in entries:
        if not entry["kind"].get("isSymbol") or entry["hasAbstract"]:
            continue
        path = entry["referencePath"].split("/documentation/", 1)[-1]
        if not path.endswith(COMPILER_DECLARED):
            yield path

def main(archives):
    missing = [path for archive in archives for path in undocumented(archive)]
    for path in missing:
        print(f"docs: no documentation comment: {path}", file=sys.stderr)
    if missing:
        print(f"docs: {len(missing)} public symbols undocumented", file=sys.stderr)
        return 1
    print(f"docs: every public symbol documented ({len(archives)} archives)")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
