import CKSchemaYAML

/// Maps byte offsets of JSON text written from YAML back to the YAML line and column of
/// the node that produced them.
package struct YAMLOffsetMap: Sendable {
    /// (JSON offset, YAML line, YAML column), in increasing offset order.
    var marks: [(offset: Int, line: Int, column: Int)] = []

    func position(of offset: Int) -> (Int, Int) {
        var lo = 0, hi = marks.count - 1
        var best = 0
        while lo <= hi {
            let mid = (lo + hi) / 2
            if marks[mid].offset <= offset { best = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        guard !marks.isEmpty else { return (1, 1) }
        return (marks[best].line, marks[best].column)
    }
}

/// Turns a YAML record into JSON bytes that the JSON checker reads, so that YAML records
/// get exactly the same checks; positions map back through a `YAMLOffsetMap`.
enum YAMLRecordConverter {
    static func json(_ node: YAMLNode) -> ([UInt8], YAMLOffsetMap) {
        var out: [UInt8] = []
        var map = YAMLOffsetMap()
        write(node, &out, &map)
        return (out, map)
    }

    private static func write(_ node: YAMLNode, _ out: inout [UInt8], _ map: inout YAMLOffsetMap) {
        map.marks.append((out.count, node.line, node.column))
        switch node.kind {
        case .mapping(let pairs):
            out.append(UInt8(ascii: "{"))
            for (k, pair) in pairs.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                map.marks.append((out.count, pair.key.line, pair.key.column))
                string(pair.key.scalar ?? "", &out)
                out.append(UInt8(ascii: ":"))
                write(pair.value, &out, &map)
            }
            out.append(UInt8(ascii: "}"))
        case .sequence(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                write(item, &out, &map)
            }
            out.append(UInt8(ascii: "]"))
        case .scalar(let s, let style):
            if style == .plain {
                if node.isNull { out.append(contentsOf: Array("null".utf8)); return }
                if s == "true" || s == "false" { out.append(contentsOf: Array(s.utf8)); return }
                if isJSONNumber(s) { out.append(contentsOf: Array(s.utf8)); return }
                let lower = s.lowercased()
                if lower == ".nan" || lower == ".inf" || lower == "-.inf" || lower == "+.inf" {
                    // Not representable in CloudKit; let the checker report it as a bad token.
                    out.append(contentsOf: Array("NaN".utf8))
                    return
                }
            }
            string(s, &out)
        }
    }

    private static func isJSONNumber(_ s: String) -> Bool {
        let b = Array(s.utf8)
        var i = 0
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        let d0 = i
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        if i == d0 || (b[d0] == 0x30 && i - d0 > 1) { return false }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let f0 = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            if i == f0 { return false }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            let e0 = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            if i == e0 { return false }
        }
        return i == b.count
    }

    private static func string(_ s: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
