/// A reader of the XML that Xcode writes for a model's `contents`, instead of Foundation's
/// `XMLParser` (docs/coredata.md, "Reading contents"): libxml2 under FoundationXML traps on a
/// name that is not UTF-8 and crashes on a processing instruction without data, and it
/// expands internal entities (349 KB of them took 5.9 GB). The subset Xcode writes is
/// regular: an XML declaration, elements with quoted attributes, whitespace, comments. This
/// reader takes that and XML's other harmless pieces (processing instructions, CDATA and
/// text, which it skips; the five predefined entities and character references in attribute
/// values) and refuses everything else with a located reason: a DTD (`<!DOCTYPE`, so no
/// entity can be declared), an entity reference other than the five, bytes that are not
/// UTF-8, nesting deeper than `maxDepth`. One pass over the bytes, no recursion, memory
/// bounded by the largest attribute value; positions are byte offsets, turned into
/// line:column in one place (`ModelXMLReader.location(of:)`).
struct ModelXMLReader {
    /// Where something went wrong: what, the byte offset it starts at, and what to do.
    struct Failure: Error {
        var message: String
        var offset: Int
        var fix: String?
        /// True when the input stopped before the document ended (a truncated file).
        var truncated = false
        /// False for well-formed XML this reader refuses (a DTD, an entity reference).
        var malformed = true
    }

    /// One piece of the document, in order.
    enum Event {
        /// `<name a="v">` or `<name/>` (an empty element is followed by its `.end`), at the `<`.
        case start(name: String, attributes: [String: String], offset: Int)
        case end(name: String)
    }

    /// The message of a document without any element.
    static let noElement = "holds no element"

    /// Elements nest at most this deep (a model nests four).
    static let maxDepth = 64

    let bytes: [UInt8]
    private var i = 0
    private var open: [String] = []
    private var pendingEnd: String?
    private var rootSeen = false
    private var finished = false

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed before the declaration.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    static func fail(_ message: String, at offset: Int, fix: String? = nil) -> Failure {
        Failure(message: message, offset: offset, fix: fix)
    }

    /// The next event, or nil at the end of a complete document.
    mutating func next() throws(Failure) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            if open.isEmpty { finished = true }
            return .end(name: name)
        }
        while true {
            guard i < bytes.count else {
                if !open.isEmpty { throw Failure(message: "ends before </\(open.last!)>; the file is truncated", offset: bytes.count, fix: nil, truncated: true) }
                if !rootSeen { throw Self.fail(Self.noElement, at: 0) }
                return nil
            }
            if bytes[i] != 0x3C {  // text
                let start = i
                while i < bytes.count, bytes[i] != 0x3C {
                    let b = bytes[i]
                    if open.isEmpty, !Self.isSpace(b) {
                        throw Self.fail("has text outside the root element", at: start)
                    }
                    if b == 0x26 { _ = try reference() } else { i += 1 }
                }
                continue
            }
            if starts("<!--") { try skip(past: "-->", from: i + 4, what: "a comment"); continue }
            if starts("<![CDATA[") {
                guard !open.isEmpty else { throw Self.fail("has a CDATA section outside the root element", at: i) }
                try skip(past: "]]>", from: i + 9, what: "a CDATA section")
                continue
            }
            if starts("<!") {
                // <!DOCTYPE, <!ENTITY, <!ELEMENT ...: a DTD can declare entities that expand
                // without bound; Xcode never writes one.
                throw Failure(message: "holds a DTD or entity declaration ('<!'), which a Core Data model never has; entities are not read",
                              offset: i, fix: "remove the <!DOCTYPE ...> and any <!ENTITY ...> from 'contents', or save the model again in Xcode", malformed: false)
            }
            if starts("<?") {
                let at = i
                i += 2
                guard name() != nil else { throw Self.fail("has a processing instruction without a target name", at: at) }
                try skip(past: "?>", from: i, what: "a processing instruction")
                continue
            }
            if starts("</") {
                let at = i
                i += 2
                guard let n = name() else { throw Self.fail("has an end tag without a name", at: at) }
                skipSpace()
                guard i < bytes.count else { throw truncated() }
                guard bytes[i] == 0x3E else { throw Self.fail("has an end tag </\(n)> that does not end with '>'", at: at) }
                i += 1
                guard let top = open.last else { throw Self.fail("has an end tag </\(n)> with no element open", at: at) }
                guard top == n else { throw Self.fail("closes <\(top)> with </\(n)>", at: at) }
                open.removeLast()
                if open.isEmpty { finished = true }
                return .end(name: n)
            }
            return try startTag()
        }
    }

    private mutating func startTag() throws(Failure) -> Event {
        let at = i
        i += 1
        guard let n = name() else {
            guard i < bytes.count else { throw truncated() }
            throw Self.fail("has a '<' that starts no element", at: at)
        }
        if finished { throw Self.fail("has a second root element <\(n)>", at: at) }
        guard open.count < Self.maxDepth else {
            throw Self.fail("nests elements deeper than \(Self.maxDepth) levels; a Core Data model nests four", at: at)
        }
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = skipSpace()
            guard i < bytes.count else { throw truncated() }
            if bytes[i] == 0x3E { i += 1; break }
            if bytes[i] == 0x2F {
                guard i + 1 < bytes.count else { throw truncated() }
                guard bytes[i + 1] == 0x3E else { throw Self.fail("has '/' inside the tag <\(n)>", at: i) }
                i += 2
                pendingEnd = n
                break
            }
            let attrAt = i
            guard hadSpace, let key = name() else { throw Self.fail("has an attribute in <\(n)> that is not name=\"value\"", at: attrAt) }
            skipSpace()
            guard i < bytes.count else { throw truncated() }
            guard bytes[i] == 0x3D else { throw Self.fail("has an attribute '\(key)' in <\(n)> without '='", at: attrAt) }
            i += 1
            skipSpace()
            guard i < bytes.count else { throw truncated() }
            let quote = bytes[i]
            guard quote == 0x22 || quote == 0x27 else { throw Self.fail("has an attribute '\(key)' in <\(n)> whose value is not quoted", at: attrAt) }
            i += 1
            var value: [UInt8] = []
            while true {
                guard i < bytes.count else { throw truncated() }
                let b = bytes[i]
                if b == quote { i += 1; break }
                if b == 0x3C { throw Self.fail("has '<' inside the value of '\(key)' in <\(n)>", at: i) }
                if b == 0x26 {
                    let scalar = try reference()
                    value.append(contentsOf: Array(String(scalar).utf8))
                } else {
                    // XML normalises whitespace characters in an attribute value to spaces.
                    value.append(b == 0x09 || b == 0x0A || b == 0x0D ? 0x20 : b)
                    i += 1
                }
            }
            guard attributes.updateValue(String(decoding: value, as: UTF8.self), forKey: key) == nil else {
                throw Self.fail("has the attribute '\(key)' twice in <\(n)>", at: attrAt)
            }
        }
        open.append(n)
        rootSeen = true
        return .start(name: n, attributes: attributes, offset: at)
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#NN;` `&#xHH;` at `i`: the character it stands for.
    private mutating func reference() throws(Failure) -> Unicode.Scalar {
        let at = i
        var end = i + 1
        // The longest reference is `&#x10FFFF;` (10 bytes); stop looking well before a long run.
        while end < bytes.count, end - at <= 12, bytes[end] != 0x3B { end += 1 }
        guard end < bytes.count, bytes[end] == 0x3B else { throw Self.fail("has an '&' that starts no character reference (write &amp;)", at: at) }
        let body = String(decoding: bytes[(at + 1)..<end], as: UTF8.self)
        i = end + 1
        switch body {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        if body.hasPrefix("#") {
            let hex = body.hasPrefix("#x")
            let digits = body.dropFirst(hex ? 2 : 1)
            if !digits.isEmpty, let v = UInt32(digits, radix: hex ? 16 : 10), v != 0, let s = Unicode.Scalar(v) { return s }
            throw Self.fail("has the character reference '&\(body);', which names no character", at: at)
        }
        throw Failure(message: "refers to the entity '&\(body);'; a Core Data model uses none but XML's five (&lt; &gt; &amp; &quot; &apos;)",
                      offset: at, fix: "write the text itself, or one of &lt; &gt; &amp; &quot; &apos;", malformed: false)
    }

    private func truncated() -> Failure {
        Failure(message: "ends inside a tag; the file is truncated", offset: bytes.count, fix: nil, truncated: true)
    }

    private func starts(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        let p = s.utf8Start
        for k in 0..<n where bytes[i + k] != p[k] { return false }
        return true
    }

    /// Moves past the next `terminator` at or after `from`.
    private mutating func skip(past terminator: StaticString, from: Int, what: String) throws(Failure) {
        let at = i
        i = from
        while i < bytes.count {
            if starts(terminator) { i += terminator.utf8CodeUnitCount; return }
            i += 1
        }
        throw Failure(message: "ends inside \(what); the file is truncated", offset: at, fix: nil, truncated: true)
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = i
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        return i > start
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// An XML name at `i` (letters, digits, `_ : . -` and any non-ASCII; not starting with a
    /// digit, `.` or `-`), or nil with `i` unchanged.
    private mutating func name() -> String? {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            let letter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x3A || b >= 0x80
            let other = (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x2D
            if letter || (other && i > start) { i += 1 } else { break }
        }
        guard i > start else { return nil }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }
}
