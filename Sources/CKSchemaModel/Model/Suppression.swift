import Foundation

/// One `ckschema-disable` comment of a source file: `# ckschema-disable CK110: reason` after
/// code switches the rule off on its line; alone on its line, on the next line. The reason
/// is required.
///
/// The readers find them when they read a file (`Suppression.scan`) and keep them on the
/// schema (`Schema.suppressions`), so lint never reads a file a second time.
public struct Suppression: Sendable, Hashable {
    public var file: String
    public var line: Int
    public var column: Int
    /// The codes it names (`all` for every rule).
    public var codes: Set<String>
    /// False when no reason follows a colon: such a comment is not honoured (CK124).
    public var reasoned: Bool
    /// Alone on its line (only a comment opener before it): it covers the next line.
    public var standalone: Bool

    public static let marker = "ckschema-disable"

    /// True when it switches `code` off.
    public func covers(_ code: String) -> Bool { reasoned && (codes.contains(code) || codes.contains("all")) }

    /// Every suppression comment in `data`, found by a byte scan, so that a large file
    /// without one costs one `memchr` pass and no string work.
    public static func scan(_ data: Data, file: String) -> [Suppression] {
        linesContainingMarker(data).compactMap { lineNo, line in
            guard let r = line.range(of: marker) else { return nil }
            let rest = line[r.upperBound...]
            let (codesPart, reason): (Substring, Substring) = {
                if let colon = rest.firstIndex(of: ":") { return (rest[..<colon], rest[rest.index(after: colon)...]) }
                return (rest, "")
            }()
            // Alone on its line: only a comment opener (`#`, `//`, `--`, `/*`) and blanks before the marker.
            let before = line[..<r.lowerBound].filter { !$0.isWhitespace }
            return Suppression(file: file, line: lineNo, column: line.distance(from: line.startIndex, to: r.lowerBound) + 1,
                               codes: Set(codesPart.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)),
                               reasoned: !reason.trimmingCharacters(in: .whitespaces).isEmpty,
                               standalone: ["#", "//", "--", "/*"].contains(String(before)))
        }
    }

    /// The lines (number and text) that contain the marker.
    static func linesContainingMarker(_ data: Data) -> [(Int, String)] {
        let marker = Array(marker.utf8)
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [(Int, String)] in
            guard raw.count >= marker.count else { return [] }
            let bytes = raw.bindMemory(to: UInt8.self)
            var out: [(Int, String)] = []
            var searchFrom = 0, line = 1, counted = 0
            while let offset = find(marker, in: raw, from: searchFrom) {
                // Count newlines up to the hit to learn its line and where the line starts.
                for j in counted..<offset where bytes[j] == 0x0A { line += 1 }
                var lineStart = offset
                while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                var end = offset
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                out.append((line, String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self)))
                counted = offset
                searchFrom = end
            }
            return out
        }
    }

    /// The offset of `needle` in `haystack` at or after `from`: memchr to the needle's
    /// rarest-looking byte ('k' of "ckschema"), then a compare.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = haystack.baseAddress else { return nil }
        let anchor = 1  // needle[1] == "k"
        var at = from + anchor
        while at < haystack.count {
            guard let p = memchr(base + at, Int32(needle[anchor]), haystack.count - at) else { return nil }
            let hit = base.distance(to: UnsafeRawPointer(p))
            let start = hit - anchor
            if start >= from, start + needle.count <= haystack.count,
               memcmp(base + start, needle, needle.count) == 0 { return start }
            at = hit + 1
        }
        return nil
    }
}

/// A schema's suppression comments, kept beside it but outside its identity (like `Origin`):
/// two schemas that differ only in comments are the same schema.
public struct SuppressionList: Sendable, Hashable {
    public var items: [Suppression]
    public init(_ items: [Suppression] = []) { self.items = items }
    public static func == (lhs: SuppressionList, rhs: SuppressionList) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
