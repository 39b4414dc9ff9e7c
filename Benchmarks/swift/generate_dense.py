#!/usr/bin/env python3
"""Writes a model-dense folder of SwiftData sources of about SIZE_MB megabytes (default 5;
issue 36, point 4): every line of a model's body is a stored property (of every stored type,
some optional, some with a default, some with an @Attribute), so the reader's per-property
work is measured with nothing else around it.

    generate_dense.py OUT_DIR [SIZE_MB]
"""
import os, sys

out = sys.argv[1]
target = float(sys.argv[2] if len(sys.argv) > 2 else 5) * 1024 * 1024
os.makedirs(out, exist_ok=True)
types = ["String", "Int", "Double", "Date", "Bool", "UUID", "Data", "Decimal", "[String]", "URL"]
defaults = {"String": '""', "Int": "0", "Double": "0", "Bool": "false", "[String]": "[]"}

def model(n, props=200):
    lines = ["@Model", f"final class Dense{n} {{"]
    for i in range(props):
        t = types[i % 10]
        d = defaults.get(t)
        if i % 7 == 3 and t in ("String", "Data"):
            lines.append(f"    @Attribute(.allowsCloudEncryption) var p{i}: {t}?")
        elif d and i % 3 == 0:
            lines.append(f"    var p{i}: {t} = {d}")
        else:
            lines.append(f"    var p{i}: {t}?")
    lines.append("    init() {}")
    lines.append("}")
    return "\n".join(lines) + "\n\n"

size, n, f = 0, 0, 0
while size < target:
    text = "import Foundation\nimport SwiftData\n\n" + "".join(model(n + k) for k in range(10))
    with open(os.path.join(out, f"Dense{f:04d}.swift"), "w") as fh:
        fh.write(text)
    size += len(text.encode())
    n += 10
    f += 1
print(f"{f} files, {n} models, {size} bytes")
