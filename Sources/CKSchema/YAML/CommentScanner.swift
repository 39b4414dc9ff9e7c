import Foundation

/// Finds `#` comments in YAML text (libyaml's event API drops them), so that `fmt`
/// can keep them. Lines inside multi-line scalars are skipped.
enum CommentScanner {
    static func scan(_ data: Data, skipping multiline: [ClosedRange<Int>]) -> [SourceComment] {
        var skip = Set<Int>()
        for r in multiline where r.count > 1 { for l in (r.lowerBound + 1)...r.upperBound { skip.insert(l) } }
        var out: [SourceComment] = []
        let text = String(decoding: data, as: UTF8.self)
        var lineNo = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNo += 1
            if skip.contains(lineNo) { continue }
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            var inSingle = false, inDouble = false
            var prev: Character = " "
            var onlySpace = true
            var idx = line.startIndex
            while idx < line.endIndex {
                let c = line[idx]
                if inDouble {
                    if c == "\\" { idx = line.index(after: idx); if idx < line.endIndex { idx = line.index(after: idx) }; prev = "x"; continue }
                    if c == "\"" { inDouble = false }
                } else if inSingle {
                    if c == "'" { inSingle = false }
                } else if c == "#", prev == " " || prev == "\t" {
                    let body = line[line.index(after: idx)...]
                    var t = String(body)
                    if t.hasPrefix(" ") { t.removeFirst() }
                    while t.hasSuffix(" ") || t.hasSuffix("\t") { t.removeLast() }
                    out.append(SourceComment(line: lineNo, text: t, isTrailing: !onlySpace))
                    break
                } else if c == "\"" {
                    inDouble = true
                } else if c == "'" && (prev == " " || prev == "[" || prev == "{" || prev == "," || prev == ":") {
                    inSingle = true
                }
                if c != " " && c != "\t" { onlySpace = false }
                prev = c
                idx = line.index(after: idx)
            }
        }
        return out
    }
}
