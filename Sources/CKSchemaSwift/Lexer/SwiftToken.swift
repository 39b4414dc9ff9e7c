/// One token of a Swift source file: what it is and which bytes it covers.
///
/// Tokens partition the file: the bytes `triviaStart..<start` are the whitespace and
/// comments before the token (its leading trivia), `start..<end` its text, and the next
/// token's trivia starts at `end`. The last token is `.endOfFile`, whose trivia runs to the
/// end of the file. Offsets are 32-bit (files are read under a 32 MB limit) so that a
/// token is 16 bytes and a million of them fit in 16 MB.
public struct SwiftToken: Sendable, Hashable {
    /// What a token is. Keywords are `.identifier` tokens (Swift's contextual keywords make
    /// "is it a keyword" a question for the reader): compare with `SwiftSource.is(_:_:)`.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// `name`, `var`, `self`, `_`, a Unicode identifier.
        case identifier
        /// `` `name` `` (the text includes the backticks; `SwiftSource.name(_:)` drops them).
        case backtickIdentifier
        /// `$0`, `$name`.
        case dollarIdentifier
        /// `#if`, `#else`, `#endif`, `#Unique`, `#Index`, `#available`, `#selector`.
        case poundKeyword
        /// `42`, `0x1F`, `0b1010`, `1_000`.
        case integerLiteral
        /// `1.5`, `1e10`, `0x1p-3`.
        case floatLiteral
        /// `"..."`, `"""..."""`, `#"..."#`, with any interpolations nested inside (one token).
        case stringLiteral
        /// `/.../` and `#/.../#`.
        case regexLiteral
        /// An operator: `=`, `->`, `==`, `...`, `..<`, `&&`, `<`, `>>`, a prefix `!`, `&`.
        /// A postfix `?` or `!` (no space before it: `String?`, `x!`, `a?.b`) is always a
        /// token of its own, as in Swift's lexer; `>>` stays one token (a reader of generic
        /// arguments splits it, as Swift's parser does).
        case `operator`
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, colon, semicolon, period, at, backslash
        /// A byte that begins no Swift token (a stray `#`, an invalid UTF-8 byte, a control
        /// character). Reported as a problem.
        case unknown
        /// The end of the file; its trivia is what follows the last token.
        case endOfFile
    }

    /// Facts about a token that a reader needs without re-reading its bytes.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The leading trivia holds a line break (statements may be separated by it).
        public static let newlineBefore = Flags(rawValue: 1 << 0)
        /// The leading trivia is not empty (whitespace or a comment before the token).
        public static let spaceBefore = Flags(rawValue: 1 << 1)
        /// A string, comment, regex or backtick name that runs to the end of its line or file.
        public static let unterminated = Flags(rawValue: 1 << 2)
        /// A string literal holding an interpolation `\(...)`.
        public static let interpolated = Flags(rawValue: 1 << 3)
        /// A multi-line string `"""` or a multi-line extended regex.
        public static let multiline = Flags(rawValue: 1 << 4)
        /// A raw string or regex (`#"..."#`, `#/.../#`).
        public static let raw = Flags(rawValue: 1 << 5)
        /// The leading trivia holds a comment.
        public static let commentBefore = Flags(rawValue: 1 << 6)
    }

    public var kind: Kind
    public var flags: Flags
    /// Byte offset where the leading trivia begins.
    public var triviaStart: Int32
    /// Byte offset of the token's first byte.
    public var start: Int32
    /// Byte offset just past the token.
    public var end: Int32

    public init(kind: Kind, flags: Flags = [], triviaStart: Int32, start: Int32, end: Int32) {
        self.kind = kind
        self.flags = flags
        self.triviaStart = triviaStart
        self.start = start
        self.end = end
    }

    /// The token's bytes as a range of offsets.
    @inlinable
    public var range: Range<Int> { Int(start)..<Int(end) }

    /// `(`, `[` or `{`.
    @inlinable
    public var isOpening: Bool { kind == .leftParen || kind == .leftBracket || kind == .leftBrace }
    /// `)`, `]` or `}`.
    @inlinable
    public var isClosing: Bool { kind == .rightParen || kind == .rightBracket || kind == .rightBrace }
}

/// A lexical problem: where it is (a byte offset) and what to say. The lexer never stops at
/// one: the bytes still become tokens (an unterminated string runs to its line's end).
public struct SwiftLexProblem: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Not valid UTF-8 at this byte.
        case invalidUTF8
        /// Anything else Swift would refuse to lex, or brackets that do not balance.
        case syntax
    }
    public var kind: Kind
    public var offset: Int
    public var message: String
    public var fix: String?

    public init(_ kind: Kind, at offset: Int, _ message: String, fix: String? = nil) {
        self.kind = kind
        self.offset = offset
        self.message = message
        self.fix = fix
    }
}
