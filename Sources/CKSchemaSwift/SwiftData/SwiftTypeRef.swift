import CKSchemaDiagnostics

/// A Swift type as written in a declaration, as far as the schema needs it.
///
/// `T?`, `T!` and `Optional<T>` are `.optional`; `[T]`, `Array<T>` are `.array`; `[K: V]`,
/// `Dictionary<K, V>` `.dictionary`; `Set<T>` `.set`; `A.B.C` a `.named` path (a leading
/// `Swift.` or `Foundation.` dropped). Anything else (tuples, functions, `some`/`any`,
/// compositions) is `.other` with its text: the reader never guesses what it stores.
///
/// Only the cases that nest are `indirect`: a `.named` type (most properties) is stored in
/// place, without a heap box per property (Benchmarks/swift).
///
/// A type nested more than `maxDepth` levels (optionals, arrays, dictionaries, sets, generic
/// arguments, tuples, closures, counted together) is `.tooDeep` with its text clipped: no
/// deeper value is ever built, so neither reading it nor releasing it (an indirect enum is
/// freed one frame per level) can overflow the stack.
enum SwiftTypeRef: Sendable, Hashable {
    case named([String])
    indirect case optional(SwiftTypeRef)
    indirect case array(SwiftTypeRef)
    indirect case set(SwiftTypeRef)
    indirect case dictionary(SwiftTypeRef, SwiftTypeRef)
    case other(String)
    /// Nested deeper than `maxDepth`: the text as written, clipped (`Diagnostic.clipped`).
    case tooDeep(String)

    /// Nesting deeper than this is `.tooDeep` (a crafted file cannot recurse without bound).
    static let maxDepth = 32

    /// The type without its optional wrappers, and whether it had any.
    var unwrapped: (type: SwiftTypeRef, optional: Bool) {
        var t = self, opt = false
        while case let .optional(inner) = t { t = inner; opt = true }
        return (t, opt)
    }

    var description: String {
        switch self {
        case let .named(p): p.joined(separator: ".")
        case let .optional(t): t.description + "?"
        case let .array(t): "[" + t.description + "]"
        case let .set(t): "Set<" + t.description + ">"
        case let .dictionary(k, v): "[" + k.description + ": " + v.description + "]"
        case let .other(s), let .tooDeep(s): s
        }
    }

    /// Parses the type written in tokens `range` of `source`; nil when the range is empty.
    static func parse(_ source: SwiftSource, _ range: Range<Int>) -> SwiftTypeRef? {
        guard !range.isEmpty else { return nil }
        // Most stored properties are `Name` or `Name?`: read without the piece list below.
        if source.isName(range.lowerBound) {
            let name = source.name(range.lowerBound)
            if name != "some", name != "any", name != "inout" {
                var type = SwiftTypeRef.named([name])
                var k = range.lowerBound + 1
                var height = 1
                while k < range.upperBound, source.tokens[k].kind == .operator, source.tokens[k].end - source.tokens[k].start == 1,
                      source.bytes[Int(source.tokens[k].start)] == UInt8(ascii: "?") || source.bytes[Int(source.tokens[k].start)] == UInt8(ascii: "!") {
                    height += 1
                    if height > maxDepth { return .tooDeep(clippedText(source, range)) }
                    type = .optional(type)
                    k += 1
                }
                if k == range.upperBound { return type }
            }
        }
        var pieces: [Piece] = []
        // The brackets open at each point (`(`, `[`, `<`, tuples and closures included) and
        // the run of `?`/`!` after a closing: beyond `maxDepth` the type is too deep, whatever
        // the parser below would make of it.
        // Each `->` nests the rest of the type in a function type: counted for good.
        var open = 0, run = 0, arrows = 0
        for k in range {
            let t = source.tokens[k]
            switch t.kind {
            case .identifier, .backtickIdentifier: pieces.append(.name(source.name(k))); run = 0
            case .operator:
                var offset = t.range.lowerBound
                while offset < t.range.upperBound {
                    let c = source.bytes[offset]
                    pieces.append(.symbol(c))
                    if c == UInt8(ascii: "-"), offset + 1 < t.range.upperBound, source.bytes[offset + 1] == UInt8(ascii: ">") {
                        pieces.append(.symbol(UInt8(ascii: ">")))
                        offset += 2
                        arrows += 1
                        run = 0
                        if open + arrows >= maxDepth { return .tooDeep(clippedText(source, range)) }
                        continue
                    }
                    if c == UInt8(ascii: "<") { open += 1 } else if c == UInt8(ascii: ">") { open -= 1 }
                    if c == UInt8(ascii: "?") || c == UInt8(ascii: "!") { run += 1 } else { run = 0 }
                    if open + arrows + run >= maxDepth { return .tooDeep(clippedText(source, range)) }
                    offset += 1
                }
            case .period: pieces.append(.symbol(UInt8(ascii: "."))); run = 0
            case .leftBracket, .leftParen:
                pieces.append(.symbol(t.kind == .leftBracket ? UInt8(ascii: "[") : UInt8(ascii: "(")))
                open += 1
                run = 0
                if open + arrows >= maxDepth { return .tooDeep(clippedText(source, range)) }
            case .rightBracket: pieces.append(.symbol(UInt8(ascii: "]"))); open -= 1; run = 0
            case .rightParen: pieces.append(.symbol(UInt8(ascii: ")"))); open -= 1; run = 0
            case .colon: pieces.append(.symbol(UInt8(ascii: ":"))); run = 0
            case .comma: pieces.append(.symbol(UInt8(ascii: ","))); run = 0
            default: pieces.append(.symbol(0)); run = 0
            }
        }
        var parser = Parser(pieces: pieces)
        guard let t = parser.type(depth: 0), parser.at == pieces.count else {
            if parser.tooDeep { return .tooDeep(clippedText(source, range)) }
            return .other(clippedText(source, range))
        }
        return t.type
    }

    /// `parse` of the types of one file's properties, remembered by their tokens: the same
    /// few types (`String`, `Date?`, `[String]`) repeat property after property, and a parsed
    /// `Name?` is two heap objects (the path and the optional's box) that a copy of the memo's
    /// value shares instead. A hit is a range whose bytes, token kinds and token bounds are
    /// those of the remembered one, so `parse` would give the same type: nothing but the tokens
    /// enters it. Two allocations, two frees and the parse per property were a tenth of a dense
    /// SwiftData import (Benchmarks/swift). Bounded: `slots` entries, a slot replaced on a clash.
    struct Memo {
        static let slots = 512
        /// Types longer than this (bytes or tokens) are parsed every time.
        static let maxBytes = 96, maxTokens = 12
        /// Each slot's tokens and what `parse` gave for them.
        private var entries = [(range: Range<Int>, type: SwiftTypeRef?)?](repeating: nil, count: Memo.slots)

        mutating func parse(_ source: SwiftSource, _ range: Range<Int>) -> SwiftTypeRef? {
            guard !range.isEmpty, range.count <= Self.maxTokens else { return SwiftTypeRef.parse(source, range) }
            let start = Int(source.tokens[range.lowerBound].start), end = Int(source.tokens[range.upperBound - 1].end)
            guard end - start <= Self.maxBytes else { return SwiftTypeRef.parse(source, range) }
            // FNV-1a over the text, then the token count.
            var h: UInt32 = 2_166_136_261
            for i in start..<end { h = (h ^ UInt32(source.bytes[i])) &* 16_777_619 }
            h = (h ^ UInt32(truncatingIfNeeded: range.count)) &* 16_777_619
            let slot = Int(h % UInt32(Self.slots))
            if let seen = entries[slot], Self.same(source, seen.range, range) { return seen.type }
            let parsed = SwiftTypeRef.parse(source, range)
            entries[slot] = (range, parsed)
            return parsed
        }

        /// The two ranges hold the same bytes in tokens of the same kinds and bounds.
        private static func same(_ source: SwiftSource, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
            guard a.count == b.count else { return false }
            let t = source.tokens
            let aStart = t[a.lowerBound].start, bStart = t[b.lowerBound].start
            guard t[a.upperBound - 1].end - aStart == t[b.upperBound - 1].end - bStart else { return false }
            for k in 0..<a.count {
                let x = t[a.lowerBound + k], y = t[b.lowerBound + k]
                guard x.kind == y.kind, x.start - aStart == y.start - bStart, x.end - aStart == y.end - bStart else { return false }
            }
            let length = Int(t[a.upperBound - 1].end - aStart)
            for i in 0..<length where source.bytes[Int(aStart) + i] != source.bytes[Int(bStart) + i] { return false }
            return true
        }
    }

    /// The text of tokens `range`, clipped for a message.
    static func clippedText(_ source: SwiftSource, _ range: Range<Int>) -> String {
        let start = Int(source.tokens[range.lowerBound].start)
        let end = Int(source.tokens[range.upperBound - 1].end)
        // Decode no more than a message quotes (4 bytes a scalar at most, and the ellipsis).
        let cut = min(end, start + 4 * Diagnostic.quoteLimit + 4)
        return Diagnostic.clipped(String(decoding: source.bytes[start..<cut], as: UTF8.self) + (cut < end ? "…" : ""))
    }

    enum Piece: Hashable {
        case name(String)
        case symbol(UInt8)
    }

    struct Parser {
        let pieces: [Piece]
        var at = 0

        // `UInt8` rather than `Character`: no conversion per call (Benchmarks/swift).
        func peek(_ c: UInt8) -> Bool {
            guard at < pieces.count, case let .symbol(b) = pieces[at] else { return false }
            return b == c
        }

        mutating func eat(_ c: UInt8) -> Bool {
            guard peek(c) else { return false }
            at += 1
            return true
        }

        /// Set when the type nests deeper than `maxDepth`.
        var tooDeep = false

        /// The type at `at` and its height (1 for a name, one more per level around it).
        mutating func type(depth: Int) -> (type: SwiftTypeRef, height: Int)? {
            guard depth < SwiftTypeRef.maxDepth else { tooDeep = true; return nil }
            guard at < pieces.count else { return nil }
            var base: SwiftTypeRef
            var height: Int
            if eat(UInt8(ascii: "[")) {
                guard let element = type(depth: depth + 1) else { return nil }
                if eat(UInt8(ascii: ":")) {
                    guard let value = type(depth: depth + 1), eat(UInt8(ascii: "]")) else { return nil }
                    base = .dictionary(element.type, value.type)
                    height = max(element.height, value.height) + 1
                } else {
                    guard eat(UInt8(ascii: "]")) else { return nil }
                    base = .array(element.type)
                    height = element.height + 1
                }
            } else if case let .name(first) = pieces[at] {
                if first == "some" || first == "any" || first == "inout" { return nil }
                at += 1
                var path = [first]
                var args: [SwiftTypeRef] = []
                height = 1
                while true {
                    if eat(UInt8(ascii: "<")) {
                        args = []
                        repeat {
                            guard let a = type(depth: depth + 1) else { return nil }
                            args.append(a.type)
                            height = max(height, a.height + 1)
                        } while eat(UInt8(ascii: ","))
                        guard eat(UInt8(ascii: ">")) else { return nil }
                    }
                    guard peek(UInt8(ascii: ".")), at + 1 < pieces.count, case let .name(next) = pieces[at + 1] else { break }
                    // `.Type` and `.Protocol` are metatypes, not stored values.
                    if next == "Type" || next == "Protocol" { return nil }
                    at += 2
                    path.append(next)
                    args = []
                }
                if path.count > 1, path[0] == "Swift" || path[0] == "Foundation" { path.removeFirst() }
                switch (path, args.count) {
                case (["Optional"], 1): base = .optional(args[0])
                case (["Array"], 1): base = .array(args[0])
                case (["Set"], 1): base = .set(args[0])
                case (["Dictionary"], 2): base = .dictionary(args[0], args[1])
                case (_, 0): base = .named(path)
                default: base = .named(path)   // a generic type of the app: the reader resolves its name
                }
            } else { return nil }
            while eat(UInt8(ascii: "?")) || eat(UInt8(ascii: "!")) {
                height += 1
                guard height <= SwiftTypeRef.maxDepth else { tooDeep = true; return nil }
                base = .optional(base)
            }
            guard height <= SwiftTypeRef.maxDepth else { tooDeep = true; return nil }
            return (base, height)
        }
    }
}
