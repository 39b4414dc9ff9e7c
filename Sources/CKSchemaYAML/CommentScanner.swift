import Foundation

/// Finds `#` comments in YAML text (libyaml's event API drops them), so that `fmt`
/// can keep them. Lines inside multi-line scalars are skipped. Works on bytes: `#`,
/// quotes and spaces are ASCII, so UTF-8 text needs no decoding until a comment is found.
package enum CommentScanner {
    package static func scan(_ data: Data, skipping multiline: [ClosedRange<Int>]) -> [SourceComment] {
        var skip = Set<Int>()
        for r in multiline where r.count > 1 { for l in (r.lowerBound + 1)...r.upperBound { skip.insert(l) } }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [SourceComment] in
            let b = raw.bindMemory(to: UInt8.self)
            var out: [SourceComment] = []
            var lineNo = 1
            var i = 0
            let n = b.count
            while i < n {
                // One line: [i, end).
                var end = i
                while end < n && b[end] != 0x0A { end += 1 }
                if !skip.contains(lineNo) { scanLine(b, from: i, to: end, line: lineNo, into: &out) }
                lineNo += 1
                i = end + 1
            }
            return out
        }
    }

    private static func scanLine(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, line: Int, into out: inout [SourceComment]) {
        var inSingle = false, inDouble = false
        var prev: UInt8 = 0x20
        var onlySpace = true
        var i = start
        while i < end {
            let c = b[i]
            if inDouble {
                if c == 0x5C { i += 2; prev = 0x78; continue }  // backslash escape
                if c == 0x22 { inDouble = false }
            } else if inSingle {
                if c == 0x27 { inSingle = false }
            } else if c == 0x23, prev == 0x20 || prev == 0x09 {  // '#' after blank
                var s = i + 1
                if s < end && b[s] == 0x20 { s += 1 }
                // YAML also breaks lines at CR, NEL, U+2028 and U+2029: the comment ends at the
                // first of them, or `fmt` would write the rest back as lines of its own
                // (found by FuzzFmt: a comment holding raw CRs broke the formatted file).
                var e = s
                while e < end {
                    let c = b[e]
                    if c == 0x0D { break }
                    if c == 0xC2, e + 1 < end, b[e + 1] == 0x85 { break }
                    if c == 0xE2, e + 2 < end, b[e + 1] == 0x80, b[e + 2] == 0xA8 || b[e + 2] == 0xA9 { break }
                    e += 1
                }
                while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09 || b[e - 1] == 0x0D) { e -= 1 }
                let text = String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self)
                out.append(SourceComment(line: line, text: text, isTrailing: !onlySpace))
                return
            } else if c == 0x22 {
                inDouble = true
            } else if c == 0x27 && (prev == 0x20 || prev == 0x5B || prev == 0x7B || prev == 0x2C || prev == 0x3A) {
                inSingle = true
            }
            if c != 0x20 && c != 0x09 { onlySpace = false }
            prev = c
            i += 1
        }
    }
}
