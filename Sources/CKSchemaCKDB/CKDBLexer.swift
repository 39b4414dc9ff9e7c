import CKSchemaDiagnostics
import CKSchemaModel

/// The words the CloudKit Schema Language reserves. Matched without regard to case.
///
/// Source: Apple, "Integrating a Text-Based Schema into Your Workflow" (CloudKit Schema
/// Language grammar; keywords are case-insensitive).
enum CKDBKeyword: UInt8, CaseIterable, Sendable {
    case define, schema, create, role, record, type, grant, read, write, to
    case queryable, sortable, searchable, list, encrypted, preferred, `as`
    case asset, bytes, double, int64, location, number, reference, string, timestamp

    /// The spelling the language documents (upper case).
    var spelling: String {
        switch self {
        case .as: "AS"
        default: String(describing: self).uppercased()
        }
    }

    /// The primitive type a type keyword names, or nil for other keywords.
    var primitive: PrimitiveType? {
        switch self {
        case .asset: .asset
        case .bytes: .bytes
        case .double: .double
        case .int64: .int64
        case .location: .location
        case .number: .number
        case .reference: .reference
        case .string: .string
        case .timestamp: .timestamp
        default: nil
        }
    }

    /// The index kind an option keyword names, or nil.
    var indexKind: IndexKind? {
        switch self {
        case .queryable: .queryable
        case .sortable: .sortable
        case .searchable: .searchable
        default: nil
        }
    }

    /// The permission a GRANT keyword names, or nil.
    var permission: Permission? {
        switch self {
        case .read: .read
        case .create: .create
        case .write: .write
        default: nil
        }
    }
}

/// One token of a `.ckdb` file: where it is (byte offsets and line) and what it is.
struct CKDBToken {
    enum Kind: Equatable {
        /// An unquoted word: a keyword or a name.
        case word
        /// A double-quoted name; `start` and `end` include the quotes when present.
        case quoted
        case leftParen, rightParen, comma, semicolon, less, greater
        /// A run of bytes that cannot start a token.
        case invalid
        case endOfFile
    }

    var kind: Kind
    /// Byte offset of the first byte.
    var start: Int
    /// Byte offset one past the last byte.
    var end: Int
    /// 1-based line of `start`.
    var line: Int
    /// Byte offset where that line starts.
    var lineStart: Int
    /// For `.word`: the keyword it spells, if any.
    var keyword: CKDBKeyword?
    /// For `.quoted`: the closing quote is missing (the name runs to the end of the line).
    var isUnterminated = false

    func isKeyword(_ k: CKDBKeyword) -> Bool { kind == .word && keyword == k }
    var isName: Bool { kind == .word || kind == .quoted }
}

/// Splits `.ckdb` text into tokens, byte by byte over UTF-8 (no `Character`s, no regex):
/// the import of a multi-megabyte schema is bound by this loop.
///
/// Comments (`//`, `--` to the end of the line, `/* ... */`) and whitespace are skipped.
/// Problems (an unterminated comment) are reported to `diagnostics`; the lexer never stops
/// early and always ends with `.endOfFile`.
struct CKDBLexer {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    private(set) var offset: Int
    private(set) var line = 1
    private(set) var lineStart = 0
    var diagnostics: [Diagnostic] = []
    /// Lines holding a `//` comment with the word DEPRECATED: the convention teams use to retire
    /// a field in a `.ckdb` they maintain (moolah-native: `// DEPRECATED: reason` on the line
    /// above the field). `alone`: nothing but the comment on its line.
    private(set) var deprecationComments: [(line: Int, alone: Bool)] = []

    /// Every byte is ASCII (the parser checked): a column is then the byte's distance from
    /// the line's start, with nothing to count (three locations a field were 4.5% of import).
    private let isASCII: Bool
    /// Held here, so that a lookup does not first check that the shared table is made.
    private let keywords = KeywordTable.shared

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, isASCII: Bool = false) {
        self.bytes = bytes
        self.file = file
        self.isASCII = isASCII
        // A UTF-8 byte order mark is not part of the text.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            offset = 3
            lineStart = 3
        } else {
            offset = 0
        }
    }

    /// The last column computed: locations are asked for in file order, so counting on from
    /// there keeps a whole schema written on one line linear, not quadratic.
    private final class ColumnCache {
        var lineStart = -1
        var offset = 0
        var column = 1
    }
    private let columnCache = ColumnCache()

    /// The location of a byte offset on the given line: 1-based column in Unicode scalars.
    func location(offset: Int, line: Int, lineStart: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column(offset: offset, lineStart: lineStart))
    }

    /// The 1-based column, in Unicode scalars, of a byte offset on the line starting at
    /// `lineStart`: what a place needs when it is kept as a line and a column, without a
    /// `SourceLocation` (which retains the file name) made for every token.
    func column(offset: Int, lineStart: Int) -> Int {
        if isASCII { return offset - lineStart + 1 }
        var column = 1
        var i = lineStart
        if columnCache.lineStart == lineStart, columnCache.offset <= offset {
            column = columnCache.column
            i = columnCache.offset
        }
        if i < offset { column += UTF8Counting.scalars(bytes.baseAddress! + i, offset - i) }
        columnCache.lineStart = lineStart
        columnCache.offset = offset
        columnCache.column = column
        return column
    }

    func location(of token: CKDBToken) -> SourceLocation {
        location(offset: token.start, line: token.line, lineStart: token.lineStart)
    }

    func column(of token: CKDBToken) -> Int { column(offset: token.start, lineStart: token.lineStart) }

    /// The token's bytes as a String (for quoted names: without the quotes).
    func text(of token: CKDBToken) -> String { text(of: nameRange(token)) }

    /// The text of a byte range of the file.
    func text(of r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)
    }

    /// True when two byte ranges of the file hold the same bytes.
    func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { bytes[$0] == bytes[$1] }
    }

    /// The byte range of a name token's text (for quoted names: without the quotes).
    @inline(__always) func nameRange(_ token: CKDBToken) -> Range<Int> {
        guard token.kind == .quoted else { return token.start..<token.end }
        return (token.start + 1)..<(token.isUnterminated ? token.end : max(token.start + 1, token.end - 1))
    }

    /// FNV-1a of a name's bytes: a cheap hash to find a field listed twice.
    func nameHash(of token: CKDBToken) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in nameRange(token) { h = (h ^ UInt64(bytes[i])) &* 0x100_0000_01B3 }
        return h
    }

    /// True when a name's text begins with `_` (a system field, or a mistake).
    func nameStartsWithUnderscore(_ token: CKDBToken) -> Bool {
        let r = nameRange(token)
        return !r.isEmpty && bytes[r.lowerBound] == 0x5F
    }

    @inline(__always) private static func isWordStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F
    }

    @inline(__always) private static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
    }

    /// True for a byte whitespace or a comment may begin with (`-` and `/` only may): when the
    /// next byte is none of these, `next` does not call `skipTrivia` (after about half the
    /// tokens of an export: `,` after a type, `<` after LIST).
    @inline(__always) private static func mayStartTrivia(_ c: UInt8) -> Bool {
        let mask: UInt64 = 0x1F << 0x09 | 1 << 0x20 | 1 << 0x2D | 1 << 0x2F  // \t \n \v \f \r, ' ', '-', '/'
        return c < 0x40 && (mask >> UInt64(c)) & 1 != 0
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0C || c == 0x0B
    }

    /// The next token; `.endOfFile` forever once the text is used up. Inlined into the
    /// parser's one caller, so the token is built in registers, not stored and reloaded.
    @inline(__always) mutating func next() -> CKDBToken {
        let n = bytes.count
        if offset < n, Self.mayStartTrivia(bytes[offset]) { skipTrivia() }
        let start = offset
        guard start < n else {
            return CKDBToken(kind: .endOfFile, start: n, end: n, line: line, lineStart: lineStart)
        }
        let c = bytes[start]
        var token = CKDBToken(kind: .invalid, start: start, end: start + 1, line: line, lineStart: lineStart)
        switch c {
        case 0x28: token.kind = .leftParen
        case 0x29: token.kind = .rightParen
        case 0x2C: token.kind = .comma
        case 0x3B: token.kind = .semicolon
        case 0x3C: token.kind = .less
        case 0x3E: token.kind = .greater
        case 0x22:
            token.kind = .quoted
            var i = start + 1
            while i < n, bytes[i] != 0x22, bytes[i] != 0x0A { i += 1 }
            if i < n, bytes[i] == 0x22 {
                token.end = i + 1
            } else {
                // A quoted name may not span lines. Most likely only the closing quote
                // is missing: take the name-like bytes after the quote as the name, so
                // that the rest of the line (the type, the options) still parses.
                var e = start + 1
                while e < i {
                    let d = bytes[e]
                    guard Self.isWordByte(d) || d == 0x2E || d >= 0x80 else { break }
                    e += 1
                }
                token.end = e
                token.isUnterminated = true
            }
        default:
            if Self.isWordStart(c) {
                var i = start + 1
                while i < n, Self.isWordByte(bytes[i]) { i += 1 }
                token.kind = .word
                token.end = i
                token.keyword = keyword(from: start, to: i)
            } else {
                // One diagnostic for a whole run of bytes that cannot start a token.
                var i = start + 1
                while i < n, !startsToken(at: i) { i += 1 }
                token.end = i
            }
        }
        offset = token.end
        return token
    }

    /// True when a token, whitespace or a comment begins at `i` (ends an invalid run).
    private func startsToken(at i: Int) -> Bool {
        let c = bytes[i]
        if Self.isWordStart(c) || Self.isSpace(c) || c == 0x0A { return true }
        switch c {
        case 0x28, 0x29, 0x2C, 0x3B, 0x3C, 0x3E, 0x22: return true
        case 0x2F: return i + 1 < bytes.count && (bytes[i + 1] == 0x2F || bytes[i + 1] == 0x2A)
        case 0x2D: return i + 1 < bytes.count && bytes[i + 1] == 0x2D
        default: return false
        }
    }

    /// The keyword a word spells, without regard to case: the word's first eight bytes (and
    /// the two after them, the longest keyword being ten) folded to upper case as one integer,
    /// hashed to a slot of `KeywordTable`, and one comparison (this runs for every word).
    private func keyword(from s: Int, to e: Int) -> CKDBKeyword? {
        let len = e - s
        guard len >= 2, len <= KeywordTable.maxLength else { return nil }
        let k = min(len, 8)
        var head: UInt64 = 0
        if s + 8 <= bytes.count {
            head = UnsafeRawPointer(bytes.baseAddress! + s).loadUnaligned(as: UInt64.self).littleEndian
            if k < 8 { head &= (1 << UInt64(k &* 8)) &- 1 }
        } else {
            for j in 0..<k { head |= UInt64(bytes[s + j]) << UInt64(j &* 8) }
        }
        var tail: UInt64 = 0
        if len > 8 { for j in 8..<len { tail |= UInt64(bytes[s + j]) << UInt64((j - 8) &* 8) } }
        return keywords.lookup(head: head, tail: tail)
    }

    /// True when the comment text `bytes[from..<to]` holds the word DEPRECATED (upper case, as
    /// the convention writes it, so that prose saying "deprecated" is not read as the marker).
    static func mentionsDeprecated(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        let word = Array("DEPRECATED".utf8)
        guard to - from >= word.count else { return false }
        var i = from
        while i + word.count <= to {
            if bytes[i] == word[0] {
                var k = 1
                while k < word.count, bytes[i + k] == word[k] { k += 1 }
                if k == word.count {
                    let before = i == from || !isWordByte(bytes[i - 1])
                    let after = i + k == to || !isWordByte(bytes[i + k])
                    if before && after { return true }
                }
            }
            i += 1
        }
        return false
    }

    private mutating func newline(at i: Int) {
        line += 1
        lineStart = i + 1
    }

    private mutating func skipTrivia() {
        let n = bytes.count
        var i = offset
        while i < n {
            let c = bytes[i]
            if c == 0x0A {
                newline(at: i)
                i += 1
            } else if c == 0x20 {
                // One space (between keywords) or a run (cktool's alignment, indentation).
                i += 1
                if i < n, bytes[i] == 0x20 { i += UTF8Counting.spaces(bytes.baseAddress! + i, n - i) }
            } else if Self.isSpace(c) {
                i += 1
            } else if (c == 0x2F || c == 0x2D), i + 1 < n, bytes[i + 1] == c {
                // `//` or `--`: to the end of the line.
                let start = i
                i += 2
                while i < n, bytes[i] != 0x0A { i += 1 }
                if c == 0x2F, Self.mentionsDeprecated(bytes, start + 2, i) {
                    var alone = true
                    var j = lineStart
                    while j < start { if !Self.isSpace(bytes[j]) { alone = false; break }; j += 1 }
                    deprecationComments.append((line, alone))
                }
            } else if c == 0x2F, i + 1 < n, bytes[i + 1] == 0x2A {
                let open = location(offset: i, line: line, lineStart: lineStart)
                i += 2
                var closed = false
                while i < n {
                    let d = bytes[i]
                    if d == 0x2A, i + 1 < n, bytes[i + 1] == 0x2F {
                        i += 2
                        closed = true
                        break
                    }
                    if d == 0x0A { newline(at: i) }
                    i += 1
                }
                if !closed {
                    diagnostics.append(Diagnostic(
                        rule: CKDBRules.unterminated, "unterminated comment: '/*' has no closing '*/'",
                        at: open, fix: "close the comment with '*/'"))
                }
            } else {
                break
            }
        }
        offset = i
    }
}

/// The keywords by a perfect hash of their folded bytes (see `CKDBLexer.keyword`): 64 slots,
/// each keyword alone in its slot (a test checks every keyword in every case).
struct KeywordTable: Sendable {
    static let maxLength = 10
    static let shared = KeywordTable()
    /// Folds ASCII letters to upper case; a word's other bytes (digits, `_`) map to bytes no
    /// other word byte maps to, so two words fold alike only when they differ in case.
    private static let fold: UInt64 = 0xDFDF_DFDF_DFDF_DFDF
    private static let multiplier: UInt64 = 0x7B4E_1430_2B7E_C8AB

    private var heads = [UInt64](repeating: 0, count: 64)
    private var tails = [UInt64](repeating: 0, count: 64)
    private var words = [CKDBKeyword?](repeating: nil, count: 64)

    private static func slot(_ head: UInt64, _ tail: UInt64) -> Int {
        Int(truncatingIfNeeded: ((head ^ tail << 40) &* multiplier) >> 58)
    }

    private init() {
        for k in CKDBKeyword.allCases {
            var head: UInt64 = 0, tail: UInt64 = 0
            for (j, c) in k.spelling.utf8.enumerated() {
                if j < 8 { head |= UInt64(c) << UInt64(j * 8) } else { tail |= UInt64(c) << UInt64((j - 8) * 8) }
            }
            head &= Self.fold
            tail &= Self.fold
            let i = Self.slot(head, tail)
            precondition(words[i] == nil, "two keywords share a slot of KeywordTable")
            heads[i] = head
            tails[i] = tail
            words[i] = k
        }
    }

    /// The keyword whose folded spelling is `head` (its first eight bytes, little-endian, zero
    /// past its end) and `tail` (the bytes after the eighth), with the word's bytes unfolded.
    @inline(__always) func lookup(head: UInt64, tail: UInt64) -> CKDBKeyword? {
        let h = head & Self.fold, t = tail & Self.fold
        let i = Self.slot(h, t)
        return heads[i] == h && tails[i] == t ? words[i] : nil
    }
}
