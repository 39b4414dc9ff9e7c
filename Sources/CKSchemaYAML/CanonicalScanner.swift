import Foundation

/// A YAML scanner of ckschema's own for the canonical subset that `ckschema fmt` writes,
/// producing the events libyaml would, marks included (0-based line, and column counted in
/// characters, as libyaml counts them), for `SchemaEventDecoder`. libyaml spent about 900 M
/// instructions on the 3.8 MB benchmark schema; this spends a small fraction of that.
///
/// The subset (docs/architecture.md, "The YAML reader"): LF line breaks; indentation by
/// spaces; block mappings whose keys are plain or quoted scalars on one line (`key:` with the
/// value on the same line, or a nested block below it, or nothing); block sequences of
/// `- value` entries (indented or not); values that are plain scalars, single- or
/// double-quoted scalars on one line, or flow collections on one line (`[a, b]`, and
/// `{ k: v, k: [a, b] }`); comments and blank lines anywhere a line may start, and after a
/// value. Anything else (tabs, CR, control characters, a BOM, NEL or U+2028/U+2029, flow
/// collections or scalars that go on to the next line, anchors, aliases, tags, block scalars,
/// `?` and `-` or `:` starting a scalar, directives, `---` and `...`, unknown escapes, an
/// indentation that matches no open collection, keys longer than libyaml takes) makes it
/// **decline**: `declined` is set, `advance` throws, and the caller reads the whole file
/// through libyaml instead. It never reports a YAML error of its own; what it accepts,
/// libyaml accepts with the same events (`CanonicalScannerTests`, `Fuzz/FuzzYAMLEvents`).
///
/// One line is scanned at a time into a small queue of events, so memory stays bounded by
/// the longest line; nesting is bounded by `YAMLReader.maxDepth`. The input must be valid
/// UTF-8 (the callers check it first); every read is still checked against the line's end.
struct CanonicalScanner {
    typealias Kind = YAMLEventKind

    struct Event {
        var kind: Kind
        var style: YAMLNode.ScalarStyle = .plain
        var isFlow = false
        var line = 0, column = 0, endLine = 0, endColumn = 0
        /// The scalar's bytes: in the input, or (escapes decoded) in `scratch`.
        var start = 0, count = 0
        var inScratch = false
    }

    private struct Block {
        var indent: Int
        var isSequence: Bool
        /// A sequence whose `-` sit in its parent mapping's column (`key:\n- a`).
        var indentless = false
    }

    struct Decline: Error {}

    private let p: UnsafePointer<UInt8>
    private let n: Int
    /// Where the next line starts, its 0-based number, and the current line's bounds.
    private var pos = 0
    private var lineNo = 0
    private var lineStart = 0
    private var lineEnd = 0
    private var lineASCII = true
    /// The last column computed on a non-ASCII line, so that columns are counted once.
    private var colByte = 0, colChars = 0

    private var blocks: [Block] = []
    /// The last line was `key:` with nothing after it; the empty value's place if nothing follows.
    private var pendingKey = false
    private var pendingLine = 0, pendingColumn = 0
    /// The last line ended in a plain scalar: a more indented line next would continue it.
    private var plainAtEnd = false
    private var started = false
    private var finished = false

    /// The current line's events, and the next one to hand out.
    private(set) var events: [Event] = []
    private var next = 0
    /// Decoded scalars (those with escapes) of the current line.
    private(set) var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 0
    private var scratchCount = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        // An empty input reads nothing: the scanner declines it before any read.
        p = bytes.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } ?? UnsafePointer(CanonicalScanner.none)
        n = bytes.baseAddress == nil ? 0 : bytes.count
        scratchCapacity = 64
        scratch = .allocate(capacity: scratchCapacity)
        events.reserveCapacity(16)
        blocks.reserveCapacity(8)
    }

    /// What `p` points at for an empty input (never read: the scanner declines it first).
    nonisolated(unsafe) private static let none: UnsafeMutablePointer<UInt8> = {
        let byte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        byte.initialize(to: 0)
        return byte
    }()

    func free() { scratch.deallocate() }

    /// The bytes of a scalar event.
    func bytes(of e: Event) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: (e.inScratch ? UnsafePointer(scratch) : p) + e.start, count: e.count)
    }

    /// The next event; throws `Decline` when the input leaves the subset.
    mutating func advance() throws(Decline) -> Event {
        while next == events.count {
            guard !finished else { throw Decline() }
            events.removeAll(keepingCapacity: true)
            scratchCount = 0
            next = 0
            try scanLine()
        }
        next += 1
        return events[next - 1]
    }

    // MARK: Lines

    private mutating func scanLine() throws(Decline) {
        guard pos < n else { return try finish() }
        lineStart = pos
        // The line's end, and whether it holds anything but printable ASCII.
        var e = pos
        var high = false
        // Eight printable ASCII bytes at a time (no line break, control character or byte
        // above 0x7E among them), then byte by byte to the line's end.
        while e + 8 <= n {
            let w = UnsafeRawPointer(p + e).loadUnaligned(as: UInt64.self)
            guard ((w &- 0x2020_2020_2020_2020) | w | (w &+ 0x0101_0101_0101_0101)) & 0x8080_8080_8080_8080 == 0 else { break }
            e += 8
        }
        while e < n {
            let b = p[e]
            if b == 0x0A { break }
            if b < 0x20 || b == 0x7F { throw Decline() }  // tab, CR, control characters
            if b >= 0x80 { high = true }
            e += 1
        }
        lineEnd = e
        lineASCII = !high
        colByte = lineStart
        colChars = 0
        if high { try checkCharacters() }
        pos = e + 1
        defer { lineNo += 1 }

        var i = lineStart
        while i < e && p[i] == 0x20 { i += 1 }
        if i == e { return }  // blank: a plain scalar above may still go on below
        if p[i] == 0x23 {  // a comment line ends any plain scalar above
            plainAtEnd = false
            return
        }
        let c = i - lineStart
        if c == 0 && e - i >= 3 && ((p[i] == 0x2D && p[i + 1] == 0x2D && p[i + 2] == 0x2D) || (p[i] == 0x2E && p[i + 1] == 0x2E && p[i + 2] == 0x2E)) {
            throw Decline()  // a document marker, or a scalar that looks like one
        }
        let isEntry = p[i] == 0x2D && (i + 1 == e || p[i + 1] == 0x20)
        if plainAtEnd, let top = blocks.last, c > top.indent { throw Decline() }  // a multi-line plain scalar
        plainAtEnd = false

        if !started {
            started = true
            emit(.streamStart, 0, 0, 0, 0)
            emit(.documentStart, lineNo, c, lineNo, c)
            try open(sequence: isEntry, indent: c)
        } else if pendingKey {
            pendingKey = false
            let top = blocks[blocks.count - 1]
            if c > top.indent {
                try open(sequence: isEntry, indent: c)
            } else if c == top.indent && isEntry && !top.isSequence {
                try push(Block(indent: c, isSequence: true, indentless: true))
                emit(.sequenceStart, lineNo, c, lineNo, c + 1)
            } else {
                emit(.scalar, pendingLine, pendingColumn, pendingLine, pendingColumn)
                try close(to: c, isEntry: isEntry)
            }
        } else {
            try close(to: c, isEntry: isEntry)
        }
        if blocks[blocks.count - 1].isSequence {
            guard isEntry else { throw Decline() }
            try entry(after: i + 1)
        } else {
            guard !isEntry else { throw Decline() }
            try keyLine(at: i)
        }
    }

    /// NEL, U+2028, U+2029 (line breaks to libyaml), C1 controls, the BOM and U+FFFE/U+FFFF.
    private func checkCharacters() throws(Decline) {
        var i = lineStart
        while i < lineEnd {
            let b = p[i]
            if b == 0xC2, i + 1 < lineEnd, p[i + 1] < 0xA0 { throw Decline() }
            if b == 0xE2, i + 2 < lineEnd, p[i + 1] == 0x80, p[i + 2] == 0xA8 || p[i + 2] == 0xA9 { throw Decline() }
            if b == 0xEF, i + 2 < lineEnd, (p[i + 1] == 0xBB && p[i + 2] == 0xBF) || (p[i + 1] == 0xBF && p[i + 2] >= 0xBE) { throw Decline() }
            i += 1
        }
    }

    private mutating func push(_ block: Block) throws(Decline) {
        guard blocks.count < YAMLReader.maxDepth else { throw Decline() }
        blocks.append(block)
    }

    /// A block collection starting at this line's first character.
    private mutating func open(sequence: Bool, indent c: Int) throws(Decline) {
        try push(Block(indent: c, isSequence: sequence))
        emit(sequence ? .sequenceStart : .mappingStart, lineNo, c, lineNo, c)
    }

    /// Ends the collections this line is less indented than; it must then sit in the column
    /// of the one it continues. An indentless sequence ends at a key of its mapping.
    private mutating func close(to c: Int, isEntry: Bool) throws(Decline) {
        while let top = blocks.last, top.indent > c || (top.indentless && !isEntry && top.indent == c) {
            blocks.removeLast()
            emit(.end, lineNo, c, lineNo, c)
        }
        guard let top = blocks.last, top.indent == c else { throw Decline() }
    }

    /// The end of the input: the empty value of a last `key:`, then every collection ends.
    /// libyaml ends those more indented than the end of an unterminated last line there (found
    /// by FuzzYAMLEvents: a last line of one space), and the rest where it puts the stream's
    /// end, the start of the line after the last one.
    private mutating func finish() throws(Decline) {
        guard started else { throw Decline() }  // nothing but comments: libyaml's empty stream
        finished = true
        if pendingKey {
            pendingKey = false
            emit(.scalar, pendingLine, pendingColumn, pendingLine, pendingColumn)
        }
        // `lineStart..<lineEnd` is still the last line; it is unterminated when it ends the input.
        let unterminated = lineEnd == n && n > 0 && p[n - 1] != 0x0A
        let lastColumn = unterminated ? column(at: lineEnd) : 0
        while let top = blocks.popLast() {
            if unterminated && top.indent > lastColumn {
                emit(.end, lineNo - 1, lastColumn, lineNo - 1, lastColumn)
            } else {
                emit(.end, lineNo, 0, lineNo, 0)
            }
        }
        emit(.documentEnd, lineNo, 0, lineNo, 0)
        emit(.streamEnd, lineNo, 0, lineNo, 0)
    }

    // MARK: Block content

    /// `key: value`, `key:` or `key:  # comment`.
    private mutating func keyLine(at i: Int) throws(Decline) {
        let colon: Int
        switch p[i] {
        case 0x22, 0x27:
            colon = try quoted(at: i)
        default:
            guard Self.startsPlain(p[i]) else { throw Decline() }
            var j = i
            while true {
                guard j < lineEnd else { throw Decline() }  // no `:`: libyaml's error
                let b = p[j]
                if b == 0x3A && (j + 1 == lineEnd || p[j + 1] == 0x20) { break }
                if b == 0x20 && j + 1 < lineEnd && p[j + 1] == 0x23 { throw Decline() }  // ` #` ends the key
                j += 1
            }
            guard p[j - 1] != 0x20 else { throw Decline() }  // `key :`
            emitScalar(.plain, from: i, to: j, valueStart: i, valueCount: j - i)
            colon = j
        }
        guard colon < lineEnd, p[colon] == 0x3A, colon + 1 == lineEnd || p[colon + 1] == 0x20 else { throw Decline() }
        try checkKeyLength(from: i, to: colon)
        var k = colon + 1
        while k < lineEnd && p[k] == 0x20 { k += 1 }
        if k == lineEnd || p[k] == 0x23 {
            pendingKey = true
            pendingLine = lineNo
            pendingColumn = column(at: colon + 1)
            return
        }
        try value(at: k)
    }

    /// `- value` (an empty entry, or a nested collection in one, is left to libyaml).
    private mutating func entry(after dash: Int) throws(Decline) {
        var k = dash
        while k < lineEnd && p[k] == 0x20 { k += 1 }
        guard k < lineEnd, p[k] != 0x23 else { throw Decline() }
        try value(at: k)
    }

    /// A value on a block line, then nothing but spaces and a comment.
    private mutating func value(at k: Int) throws(Decline) {
        var end: Int
        switch p[k] {
        case 0x22, 0x27: end = try quoted(at: k)
        case 0x5B: end = try flowCollection(at: k, mapping: false)
        case 0x7B: end = try flowCollection(at: k, mapping: true)
        default:
            guard Self.startsPlain(p[k]) else { throw Decline() }
            // A plain scalar runs to the line's end or a ` #`; `: ` in it would be a key.
            var j = k, last = k
            var comment = false
            while j < lineEnd {
                let b = p[j]
                if b == 0x20 {
                    if j + 1 < lineEnd && p[j + 1] == 0x23 { comment = true; break }
                } else {
                    if b == 0x3A && (j + 1 == lineEnd || p[j + 1] == 0x20) { throw Decline() }
                    last = j + 1
                }
                j += 1
            }
            emitScalar(.plain, from: k, to: last, valueStart: k, valueCount: last - k)
            plainAtEnd = !comment
            return
        }
        while end < lineEnd && p[end] == 0x20 { end += 1 }
        guard end == lineEnd || p[end] == 0x23 else { throw Decline() }
    }

    /// libyaml takes a key only when its `:` is at most 1,024 characters past its start.
    private func checkKeyLength(from start: Int, to colon: Int) throws(Decline) {
        if colon - start > 1000 { throw Decline() }
    }

    /// Can a plain scalar start with this byte? Not with an indicator, nor (more strictly
    /// than libyaml) with `-`, `?` or `:` at all.
    private static func startsPlain(_ b: UInt8) -> Bool {
        switch b {
        case 0x20, 0x2D, 0x3F, 0x3A, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x23, 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x27, 0x22, 0x25, 0x40, 0x60: false
        default: true
        }
    }

    // MARK: Flow collections (one line)

    /// `[a, b]` or `{ k: v, k: [a, b] }` (a mapping's values: scalars and flow sequences of
    /// scalars; anything deeper is left to libyaml). Returns the index after its closer.
    private mutating func flowCollection(at k: Int, mapping: Bool) throws(Decline) -> Int {
        let closer: UInt8 = mapping ? 0x7D : 0x5D
        emitOnLine(mapping ? .mappingStart : .sequenceStart, from: k, to: k + 1, flow: true)
        var j = skipSpaces(k + 1)
        if j < lineEnd && p[j] == closer { return closeFlow(at: j) }
        while true {
            let end = mapping ? try flowPair(at: j) : try flowScalar(at: j, isKey: false)
            j = skipSpaces(end)
            guard j < lineEnd else { throw Decline() }
            if p[j] == closer { return closeFlow(at: j) }
            guard p[j] == 0x2C else { throw Decline() }  // `,`; a trailing one is left to libyaml
            j = skipSpaces(j + 1)
        }
    }

    /// `key: value` in a flow mapping.
    private mutating func flowPair(at k: Int) throws(Decline) -> Int {
        let colon = try flowScalar(at: k, isKey: true)
        guard colon + 1 < lineEnd, p[colon] == 0x3A, p[colon + 1] == 0x20 else { throw Decline() }
        try checkKeyLength(from: k, to: colon)
        let j = skipSpaces(colon + 1)
        guard j < lineEnd else { throw Decline() }
        return p[j] == 0x5B ? try flowCollection(at: j, mapping: false) : try flowScalar(at: j, isKey: false)
    }

    private mutating func closeFlow(at j: Int) -> Int {
        emitOnLine(.end, from: j, to: j + 1)
        return j + 1
    }

    private func skipSpaces(_ from: Int) -> Int {
        var j = from
        while j < lineEnd && p[j] == 0x20 { j += 1 }
        return j
    }

    /// A scalar inside a flow collection; returns where it ends. A plain one ends at `,`,
    /// a bracket or brace, or (a key) at `: `.
    private mutating func flowScalar(at k: Int, isKey: Bool) throws(Decline) -> Int {
        guard k < lineEnd else { throw Decline() }
        let b0 = p[k]
        if b0 == 0x22 || b0 == 0x27 { return try quoted(at: k) }
        guard Self.startsPlain(b0) else { throw Decline() }
        var j = k, last = k
        while true {
            guard j < lineEnd else { throw Decline() }  // goes on to the next line
            let b = p[j]
            // Most bytes are none of the seven that matter here: one test for them all.
            if !Self.isFlowStop(b) {
                last = j + 1
                j += 1
                continue
            }
            if b == 0x20 {
                if j + 1 < lineEnd && p[j + 1] == 0x23 { throw Decline() }  // a comment inside
                j += 1
                continue
            }
            if b == 0x3A {
                // `: ` ends a key; any other `:` is left to libyaml (`a:b`, `a:,`).
                guard isKey, j + 1 < lineEnd, p[j + 1] == 0x20, last == j else { throw Decline() }
            }
            break  // `,` `[` `]` `{` `}`, or a key's `:`
        }
        if isKey && p[j] != 0x3A { throw Decline() }
        emitScalar(.plain, from: k, to: last, valueStart: k, valueCount: last - k)
        return last
    }

    /// The bytes a plain scalar in a flow collection stops at, or must look at: space, `,`
    /// and `:` below 0x40, `[` `]` `{` `}` above, as bits of two masks.
    private static let flowStopsLow: UInt64 = 1 << 0x20 | 1 << 0x2C | 1 << 0x3A
    private static let flowStopsHigh: UInt64 = 1 << (0x5B - 0x40) | 1 << (0x5D - 0x40) | 1 << (0x7B - 0x40) | 1 << (0x7D - 0x40)

    /// Whether `b` is one of `flowStopsLow` or `flowStopsHigh` (one shift and a test instead
    /// of seven comparisons: the scalar loop was lint's costliest line, 17 M instructions on
    /// the 2,000-type schema).
    @inline(__always)
    static func isFlowStop(_ b: UInt8) -> Bool {
        let mask = b < 0x40 ? flowStopsLow : b < 0x80 ? flowStopsHigh : 0
        return (mask >> UInt64(b & 0x3F)) & 1 != 0
    }

    // MARK: Quoted scalars (one line)

    /// A single- or double-quoted scalar starting at `k`; returns the index after its
    /// closing quote.
    private mutating func quoted(at k: Int) throws(Decline) -> Int {
        let quote = p[k]
        var j = k + 1
        var plainRun = true  // no escape so far: the value is the input's bytes
        while true {
            guard j < lineEnd else { throw Decline() }  // goes on to the next line
            let b = p[j]
            if b == quote {
                if quote == 0x27 && j + 1 < lineEnd && p[j + 1] == 0x27 { plainRun = false; j += 2; continue }
                break
            }
            if b == 0x5C && quote == 0x22 { plainRun = false; j += 2; continue }
            j += 1
        }
        let style: YAMLNode.ScalarStyle = quote == 0x22 ? .doubleQuoted : .singleQuoted
        if plainRun {
            emitScalar(style, from: k, to: j + 1, valueStart: k + 1, valueCount: j - k - 1)
        } else {
            let start = scratchCount
            try decode(from: k + 1, to: j, single: quote == 0x27)
            emitScalar(style, from: k, to: j + 1, valueStart: start, valueCount: scratchCount - start, inScratch: true)
        }
        return j + 1
    }

    /// The text between the quotes with `''` or backslash escapes decoded, into `scratch`.
    private mutating func decode(from: Int, to end: Int, single: Bool) throws(Decline) {
        // Every escape writes at most 1.5 times its length (`\L` is three bytes).
        ensureScratch(scratchCount + 2 * (end - from) + 4)
        var i = from
        while i < end {
            let b = p[i]
            if single {
                put(b)
                i += b == 0x27 ? 2 : 1
                continue
            }
            guard b == 0x5C else { put(b); i += 1; continue }
            guard i + 1 < end else { throw Decline() }
            let c = p[i + 1]
            i += 2
            var hex = 0
            switch c {
            case 0x30: put(0)
            case 0x61: put(0x07)
            case 0x62: put(0x08)
            case 0x74: put(0x09)
            case 0x6E: put(0x0A)
            case 0x76: put(0x0B)
            case 0x66: put(0x0C)
            case 0x72: put(0x0D)
            case 0x65: put(0x1B)
            case 0x20, 0x22, 0x2F, 0x5C: put(c)
            case 0x4E: put(0xC2); put(0x85)  // \N
            case 0x5F: put(0xC2); put(0xA0)  // \_
            case 0x4C: put(0xE2); put(0x80); put(0xA8)  // \L
            case 0x50: put(0xE2); put(0x80); put(0xA9)  // \P
            case 0x78: hex = 2
            case 0x75: hex = 4
            case 0x55: hex = 8
            default: throw Decline()
            }
            guard hex > 0 else { continue }
            guard end - i >= hex else { throw Decline() }
            var value: UInt32 = 0
            for _ in 0..<hex {
                let h = p[i]
                let digit: UInt8
                switch h {
                case 0x30...0x39: digit = h - 0x30
                case 0x41...0x46: digit = h - 0x37
                case 0x61...0x66: digit = h - 0x57
                default: throw Decline()
                }
                value = value << 4 | UInt32(digit)  // at most eight digits: fits
                i += 1
            }
            if (0xD800...0xDFFF).contains(value) || value > 0x10FFFF { throw Decline() }
            if value <= 0x7F {
                put(UInt8(value))
            } else if value <= 0x7FF {
                put(UInt8(0xC0 | value >> 6)); put(UInt8(0x80 | value & 0x3F))
            } else if value <= 0xFFFF {
                put(UInt8(0xE0 | value >> 12)); put(UInt8(0x80 | value >> 6 & 0x3F)); put(UInt8(0x80 | value & 0x3F))
            } else {
                put(UInt8(0xF0 | value >> 18)); put(UInt8(0x80 | value >> 12 & 0x3F))
                put(UInt8(0x80 | value >> 6 & 0x3F)); put(UInt8(0x80 | value & 0x3F))
            }
        }
    }

    private mutating func ensureScratch(_ capacity: Int) {
        guard capacity > scratchCapacity else { return }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bigger.update(from: scratch, count: scratchCount)
        scratch.deallocate()
        scratch = bigger
        scratchCapacity = capacity
    }

    /// One decoded byte. `decode` made room for the longest decoding first, so the growth here
    /// never runs; it is there so that a wrong bound grows the buffer instead of trapping.
    @inline(__always) private mutating func put(_ b: UInt8) {
        if scratchCount >= scratchCapacity { ensureScratch(max(64, scratchCapacity * 2)) }
        scratch[scratchCount] = b
        scratchCount += 1
    }

    // MARK: Events

    /// The column (0-based, in characters) of byte `i` of the current line.
    private mutating func column(at i: Int) -> Int {
        if lineASCII { return i - lineStart }
        if i < colByte { colByte = lineStart; colChars = 0 }
        while colByte < i {
            if p[colByte] & 0xC0 != 0x80 { colChars += 1 }
            colByte += 1
        }
        return colChars
    }

    private mutating func emit(_ kind: Kind, _ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int, flow: Bool = false) {
        events.append(Event(kind: kind, isFlow: flow, line: line, column: column, endLine: endLine, endColumn: endColumn))
    }

    /// An event from byte `from` to byte `to` of the current line. (Columns are computed
    /// first: a call on `self` with an argument that mutates `self` copies the scanner, and
    /// the event queue with it, once per event.)
    private mutating func emitOnLine(_ kind: Kind, from: Int, to: Int, flow: Bool = false) {
        let start = column(at: from), end = column(at: to)
        emit(kind, lineNo, start, lineNo, end, flow: flow)
    }

    private mutating func emitScalar(_ style: YAMLNode.ScalarStyle, from: Int, to: Int, valueStart: Int, valueCount: Int, inScratch: Bool = false) {
        let start = column(at: from), end = column(at: to)
        events.append(Event(kind: .scalar, style: style, line: lineNo, column: start, endLine: lineNo, endColumn: end,
                            start: valueStart, count: valueCount, inScratch: inScratch))
    }
}
