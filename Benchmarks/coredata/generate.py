#!/usr/bin/env python3
"""Writes a Core Data model (.xcdatamodeld with one version) of N entities x M attributes,
in Xcode's `contents` format, for Benchmarks/coredata/run.sh.

Every attribute type Xcode offers appears, every entity has a to-one relationship to the
next entity with its to-many inverse, and every tenth entity inherits from the one before.
All attributes are optional, so the model lints clean: the benchmark measures the work,
not the printing of findings.

usage: generate.py ENTITIES ATTRIBUTES OUT.xcdatamodeld
"""
import os
import sys

TYPES = ["String", "Integer 16", "Integer 32", "Integer 64", "Boolean", "Double", "Float", "Decimal",
         "Date", "Binary", "UUID", "URI", "Transformable"]


def main():
    n, m, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    version = os.path.join(out, "Bench.xcdatamodel")
    os.makedirs(version, exist_ok=True)
    with open(os.path.join(out, ".xccurrentversion"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
                '\t<key>_XCCurrentVersionName</key>\n\t<string>Bench.xcdatamodel</string>\n</dict>\n</plist>\n')
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
             '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" '
             'systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" usedWithCloudKit="YES" '
             'userDefinedModelVersionIdentifier="">']
    for e in range(n):
        parent = f' parentEntity="Entity{e - 1}"' if e % 10 == 9 else ""
        lines.append(f'    <entity name="Entity{e}" representedClassName="Entity{e}"{parent} syncable="YES" codeGenerationType="class">')
        for a in range(m):
            t = TYPES[(e + a) % len(TYPES)]
            extra = ' usesScalarValueType="YES"' if t.startswith("Integer") or t in ("Boolean", "Double", "Float") else ""
            lines.append(f'        <attribute name="e{e}attribute{a}" optional="YES" attributeType="{t}"{extra}/>')
        nxt, prev = (e + 1) % n, (e - 1) % n
        lines.append(f'        <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" '
                     f'destinationEntity="Entity{nxt}" inverseName="previous" inverseEntity="Entity{nxt}"/>')
        lines.append(f'        <relationship name="previous" optional="YES" toMany="YES" deletionRule="Nullify" '
                     f'destinationEntity="Entity{prev}" inverseName="next" inverseEntity="Entity{prev}"/>')
        lines.append('    </entity>')
    lines.append('</model>')
    with open(os.path.join(version, "contents"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
