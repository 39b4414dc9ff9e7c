#!/usr/bin/env python3
"""Writes a folder of model-heavy SwiftData sources of about SIZE_MB megabytes (default 5):
files of @Model classes with every stored type, attributes, relationships with inverses,
computed properties, multi-line initializers with closures, comments and strings.

    generate.py OUT_DIR [SIZE_MB]
"""
import os, sys

out = sys.argv[1]
target = float(sys.argv[2] if len(sys.argv) > 2 else 5) * 1024 * 1024
os.makedirs(out, exist_ok=True)

def model(n):
    p = f"Model{n}"
    other = f"Model{n + 1 if n % 2 == 0 else n - 1}"
    lines = [f"/// Model {n}: generated for the benchmark (Benchmarks/swift).",
             "@Model", f"public final class {p} {{"]
    for i in range(30):
        t = ["String", "Int", "Double", "Date", "Bool", "UUID", "Data", "Decimal", "[String]", "URL"][i % 10]
        d = {"String": '""', "Int": "0", "Double": "0", "Date": "Date()", "Bool": "false", "UUID": "UUID()",
             "[String]": "[]"}.get(t)
        attr = ["", "@Attribute(.allowsCloudEncryption) ", "@Attribute(originalName: \"old%d\") " % i, "@Attribute(.externalStorage) "][i % 4] if t in ("String", "Data") else ""
        lines.append(f"    {attr}public var field{i}: {t}{'' if d else '?'}{(' = ' + d) if d else ''}")
    lines.append(f"    @Relationship(deleteRule: .cascade, inverse: \\{other}.back{n % 2})")
    lines.append(f"    var items: [{other}]? = []")
    lines.append(f"    var back{(n + 1) % 2}: {other}?")
    lines.append("    @Transient var cache: [String: Int] = [:]")
    lines.append("    var summary: String {")
    lines.append('        "\\(field0) has \\(items?.count ?? 0) items, /* not a comment */ \\("nested \\(field1)")"')
    lines.append("    }")
    lines.append("    public init(")
    for i in range(0, 30, 3):
        lines.append(f"        field{i}: String = \"default {i}\",")
    lines.append("        transform: (String) -> String = { $0.uppercased() }")
    lines.append("    ) {")
    lines.append("        // Assignments in the body are not schema defaults.")
    lines.append("        self.field0 = transform(field0)")
    lines.append("        let pattern = /[a-z]+\\d+/")
    lines.append("        _ = field0.contains(pattern)")
    lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n\n"

size, n, f = 0, 0, 0
while size < target:
    text = "import Foundation\nimport SwiftData\n\n" + "".join(model(n + k) for k in range(10))
    with open(os.path.join(out, f"Models{f:04d}.swift"), "w") as fh:
        fh.write(text)
    size += len(text.encode())
    n += 10
    f += 1
print(f"{f} files, {n} models, {size} bytes")
