import Foundation

/// A property list read from untrusted bytes: an app's `.entitlements` or `Info.plist`
/// (XML, or binary `bplist00`). Our own reader, linear and bounded, never Foundation's
/// `PropertyListSerialization` (unbounded on hostile input, and different on Linux): each
/// value keeps the line and column it starts at (line 1 in a binary list), so a finding points
/// at the key. A DOCTYPE's internal subset (entity declarations) is refused and no entity but
/// XML's five and character references is ever expanded.
public enum PropertyList {
    /// Files larger than this are not read (entitlements and Info.plists are kilobytes).
    public static let maxBytes = 1 << 20
    /// How deeply arrays and dictionaries may nest.
    public static let maxDepth = 64
    /// How many objects a binary list may hold.
    static let maxObjects = 1 << 16

    public indirect enum Value: Sendable, Equatable {
        case string(String)
        case bool(Bool)
        /// An `<integer>` or `<real>`, as written.
        case number(String)
        case date(String)
        case data
        case array([Node])
        case dict([Entry])
    }

    /// A value and where it starts.
    public struct Node: Sendable, Equatable {
        public var value: Value
        public var line: Int
        public var column: Int
    }

    /// One dictionary entry: its key, where the key is, and its value.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var line: Int
        public var column: Int
        public var value: Node
    }

    /// Why a list could not be read, and where.
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public var line: Int
        public var column: Int
    }

    /// Reads an XML or binary property list.
    public static func parse(_ data: Data) -> Result<Node, Failure> {
        guard data.count <= maxBytes else {
            return .failure(Failure(message: "the file is \(data.count) bytes; a property list larger than \(maxBytes) bytes is not read", line: 1, column: 1))
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) {
            var b = BinaryPlistReader(bytes)
            do { return .success(try b.read()) } catch let f as Failure { return .failure(f) } catch { return .failure(Failure(message: "unreadable", line: 1, column: 1)) }
        }
        var x = XMLPlistReader(bytes)
        do { return .success(try x.read()) } catch let f as Failure { return .failure(f) } catch { return .failure(Failure(message: "unreadable", line: 1, column: 1)) }
    }
}

extension PropertyList.Node {
    /// The entry of `key` in a dictionary (the first one), else nil.
    public func entry(_ key: String) -> PropertyList.Entry? {
        guard case .dict(let entries) = value else { return nil }
        return entries.first { $0.key == key }
    }

    /// The strings of an array (nil when this is not an array of strings only).
    public var strings: [String]? {
        guard case .array(let items) = value else { return nil }
        var out: [String] = []
        for i in items {
            guard case .string(let s) = i.value else { return nil }
            out.append(s)
        }
        return out
    }

    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    /// What kind of value this is, in plist words (`array`, `string`, ...).
    public var kind: String {
        switch value {
        case .string: "string"
        case .bool: "boolean"
        case .number: "number"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dict: "dictionary"
        }
    }
}

/// The XML form: `<plist>` around one value; comments, processing instructions and a
/// DOCTYPE without an internal subset are skipped.
struct XMLPlistReader {
    typealias Failure = PropertyList.Failure
    let b: [UInt8]
    var i = 0
    var line = 1
    var lineStart = 0

    init(_ bytes: [UInt8]) { b = bytes }

    func fail(_ message: String) -> Failure { Failure(message: message, line: line, column: i - lineStart + 1) }

    mutating func advance() {
        if b[i] == 0x0A { line += 1; lineStart = i + 1 }
        i += 1
    }

    func at(_ s: String) -> Bool {
        var k = i
        for c in s.utf8 {
            guard k < b.count, b[k] == c else { return false }
            k += 1
        }
        return true
    }

    mutating func skip(_ s: String) { for _ in s.utf8 { advance() } }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { advance() }
    }

    /// Moves past `end`, or fails at the end of the input.
    mutating func skipPast(_ end: String, _ what: String) throws {
        while i < b.count {
            if at(end) { skip(end); return }
            advance()
        }
        throw fail("\(what) is never closed")
    }

    /// Space, comments and processing instructions; a DOCTYPE where `prolog` is true.
    mutating func skipMisc(prolog: Bool = false) throws {
        while true {
            skipSpace()
            if at("<!--") { skip("<!--"); try skipPast("-->", "a comment") }
            else if at("<?") { skip("<?"); try skipPast("?>", "a processing instruction") }
            else if at("<!DOCTYPE") {
                guard prolog else { throw fail("a DOCTYPE after the root element") }
                // `<!DOCTYPE plist PUBLIC "..." "...">`; an internal subset (`[ ... ]`) declares
                // entities, which are never expanded: the file is refused.
                skip("<!DOCTYPE")
                var quote: UInt8?
                while true {
                    guard i < b.count else { throw fail("the DOCTYPE is never closed") }
                    let c = b[i]
                    if let q = quote { if c == q { quote = nil } }
                    else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c }
                    else if c == UInt8(ascii: "[") { throw fail("the DOCTYPE declares entities (an internal subset), which are not expanded; remove them") }
                    else if c == UInt8(ascii: ">") { advance(); break }
                    advance()
                }
            } else { return }
        }
    }

    struct Tag {
        var name: String
        var closing: Bool
        var empty: Bool
        var line: Int
        var column: Int
    }

    /// The tag at `<`.
    mutating func tag() throws -> Tag {
        guard i < b.count, b[i] == UInt8(ascii: "<") else { throw i < b.count ? fail("text where an element was expected") : fail("the input ends where an element was expected") }
        let line = self.line, column = i - lineStart + 1
        advance()
        var closing = false
        if i < b.count, b[i] == UInt8(ascii: "/") { closing = true; advance() }
        let start = i
        while i < b.count, Self.isNameByte(b[i]) { advance() }
        guard i > start, i - start <= 64 else { throw fail("an element without a name") }
        let name = String(decoding: b[start..<i], as: UTF8.self)
        // Attributes (`version="1.0"`) are skipped, quotes respected.
        var quote: UInt8?
        while true {
            guard i < b.count else { throw fail("the tag <\(name)> is never closed") }
            let c = b[i]
            if let q = quote { if c == q { quote = nil }; advance(); continue }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c; advance(); continue }
            if c == UInt8(ascii: "<") { throw fail("'<' inside the tag <\(name)>") }
            if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") {
                advance(); advance()
                return Tag(name: name, closing: closing, empty: true, line: line, column: column)
            }
            if c == UInt8(ascii: ">") {
                advance()
                return Tag(name: name, closing: closing, empty: false, line: line, column: column)
            }
            advance()
        }
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D || c == 0x2E || c == 0x3A
    }

    mutating func read() throws -> PropertyList.Node {
        // A UTF-8 byte order mark.
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3; lineStart = 3 }
        try skipMisc(prolog: true)
        let save = (i, line, lineStart)
        let first = try tag()
        let root: PropertyList.Node
        if first.name == "plist", !first.closing {
            guard !first.empty else { throw Failure(message: "an empty <plist/>", line: first.line, column: first.column) }
            root = try value(depth: 0)
            try skipMisc()
            let end = try tag()
            guard end.closing, end.name == "plist" else { throw Failure(message: "<plist> holds more than one value (<\(end.closing ? "/" : "")\(end.name)>)", line: end.line, column: end.column) }
        } else {
            (i, line, lineStart) = save
            root = try value(depth: 0)
        }
        try skipMisc()
        guard i >= b.count else { throw fail("text after the root element") }
        return root
    }

    mutating func value(depth: Int) throws -> PropertyList.Node {
        guard depth < PropertyList.maxDepth else { throw fail("arrays and dictionaries nest more than \(PropertyList.maxDepth) deep") }
        try skipMisc()
        let t = try tag()
        guard !t.closing else { throw Failure(message: "</\(t.name)> where a value was expected", line: t.line, column: t.column) }
        func node(_ v: PropertyList.Value) -> PropertyList.Node { PropertyList.Node(value: v, line: t.line, column: t.column) }
        switch t.name {
        case "dict":
            if t.empty { return node(.dict([])) }
            var entries: [PropertyList.Entry] = []
            while true {
                try skipMisc()
                let k = try tag()
                if k.closing {
                    guard k.name == "dict" else { throw Failure(message: "</\(k.name)> closes a <dict>", line: k.line, column: k.column) }
                    return node(.dict(entries))
                }
                guard k.name == "key" else { throw Failure(message: "<\(k.name)> where a <key> was expected in a <dict>", line: k.line, column: k.column) }
                let key = try k.empty ? "" : text(closing: "key")
                let v = try value(depth: depth + 1)
                entries.append(PropertyList.Entry(key: key, line: k.line, column: k.column, value: v))
            }
        case "array":
            if t.empty { return node(.array([])) }
            var items: [PropertyList.Node] = []
            while true {
                try skipMisc()
                if at("</") {
                    let c = try tag()
                    guard c.name == "array" else { throw Failure(message: "</\(c.name)> closes an <array>", line: c.line, column: c.column) }
                    return node(.array(items))
                }
                items.append(try value(depth: depth + 1))
            }
        case "string": return node(.string(try t.empty ? "" : text(closing: "string")))
        case "integer", "real":
            let v = try t.empty ? "" : text(closing: t.name)
            return node(.number(v.trimmingCharacters(in: .whitespacesAndNewlines)))
        case "date": return node(.date(try t.empty ? "" : text(closing: "date")))
        case "data":
            if !t.empty { _ = try text(closing: "data") }
            return node(.data)
        case "true", "false":
            if !t.empty {
                try skipMisc()
                let c = try tag()
                guard c.closing, c.name == t.name else { throw Failure(message: "<\(t.name)> holds something; it is written <\(t.name)/>", line: c.line, column: c.column) }
            }
            return node(.bool(t.name == "true"))
        default:
            throw Failure(message: "<\(t.name)> is not a property list element", line: t.line, column: t.column)
        }
    }

    /// Character data up to `</name>`: XML's five entities and character references are
    /// decoded, CDATA sections kept, comments skipped; any other entity is refused.
    mutating func text(closing name: String) throws -> String {
        var out: [UInt8] = []
        while true {
            guard i < b.count else { throw fail("<\(name)> is never closed") }
            let c = b[i]
            if c == UInt8(ascii: "<") {
                if at("<![CDATA[") {
                    skip("<![CDATA[")
                    while true {
                        guard i < b.count else { throw fail("a CDATA section is never closed") }
                        if at("]]>") { skip("]]>"); break }
                        out.append(b[i]); advance()
                    }
                    continue
                }
                if at("<!--") { skip("<!--"); try skipPast("-->", "a comment"); continue }
                let t = try tag()
                guard t.closing, t.name == name else { throw Failure(message: "<\(t.closing ? "/" : "")\(t.name)> inside <\(name)>", line: t.line, column: t.column) }
                return String(decoding: out, as: UTF8.self)
            }
            if c == UInt8(ascii: "&") {
                let start = i
                var k = i + 1
                while k < b.count, k - start < 12, b[k] != UInt8(ascii: ";") { k += 1 }
                guard k < b.count, b[k] == UInt8(ascii: ";") else { throw fail("a '&' that starts no entity (write &amp;)") }
                let ref = String(decoding: b[(start + 1)..<k], as: UTF8.self)
                let decoded: String
                switch ref {
                case "lt": decoded = "<"
                case "gt": decoded = ">"
                case "amp": decoded = "&"
                case "quot": decoded = "\""
                case "apos": decoded = "'"
                default:
                    guard ref.hasPrefix("#") else { throw fail("the entity '&\(ref);' is not expanded (only XML's five and character references are read)") }
                    let hex = ref.hasPrefix("#x") || ref.hasPrefix("#X")
                    guard let n = UInt32(ref.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10), let scalar = Unicode.Scalar(n) else { throw fail("'&\(ref);' is no character") }
                    decoded = String(Character(scalar))
                }
                out += Array(decoded.utf8)
                while i <= k { advance() }
                continue
            }
            out.append(c)
            advance()
        }
    }
}

/// The binary form (`bplist00`): the trailer, the offset table, and each object read once
/// per path from the root, with every offset and reference checked against the file and a
/// reference back to an object being read refused (a cycle).
struct BinaryPlistReader {
    typealias Failure = PropertyList.Failure
    let b: [UInt8]
    var offsets: [Int] = []
    var refSize = 0
    var reading: Set<Int> = []
    /// Objects read so far: a list whose references fan out (a DAG) is bounded too.
    var visited = 0

    init(_ bytes: [UInt8]) { b = bytes }

    func fail(_ message: String) -> Failure { Failure(message: "binary property list: " + message, line: 1, column: 1) }

    func uint(_ at: Int, _ size: Int) throws -> Int {
        guard size >= 1, size <= 8, at >= 0, at <= b.count - size else { throw fail("an integer out of the file (offset \(at))") }
        var v: UInt64 = 0
        for k in 0..<size { v = v << 8 | UInt64(b[at + k]) }
        guard v <= UInt64(Int.max) else { throw fail("an offset out of range") }
        return Int(v)
    }

    mutating func read() throws -> PropertyList.Node {
        guard b.count >= 8 + 32, b.starts(with: Array("bplist00".utf8)) else { throw fail("not a bplist00 file") }
        let t = b.count - 32
        let offsetSize = Int(b[t + 6])
        refSize = Int(b[t + 7])
        let count = try uint(t + 8, 8), top = try uint(t + 16, 8), table = try uint(t + 24, 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else { throw fail("an offset or reference size outside 1...8") }
        guard count > 0, count <= PropertyList.maxObjects, top < count else { throw fail("\(count) objects, the root at \(top)") }
        guard table >= 8, table <= t, count <= (t - table) / offsetSize else { throw fail("the offset table lies outside the file") }
        offsets = try (0..<count).map { try uint(table + $0 * offsetSize, offsetSize) }
        for o in offsets where o < 8 || o >= table { throw fail("an object offset (\(o)) outside the object area") }
        return try object(top, depth: 0)
    }

    /// The length of an object whose marker is at `o`: the low nibble, or an integer after it.
    func length(_ o: Int) throws -> (count: Int, start: Int) {
        let low = Int(b[o] & 0x0F)
        guard low == 0x0F else { return (low, o + 1) }
        guard o + 1 < b.count, b[o + 1] & 0xF0 == 0x10 else { throw fail("a length that is not an integer") }
        let size = 1 << Int(b[o + 1] & 0x0F)
        return (try uint(o + 2, size), o + 2 + size)
    }

    mutating func object(_ ref: Int, depth: Int) throws -> PropertyList.Node {
        guard ref >= 0, ref < offsets.count else { throw fail("a reference (\(ref)) to no object") }
        guard depth < PropertyList.maxDepth else { throw fail("arrays and dictionaries nest more than \(PropertyList.maxDepth) deep") }
        visited += 1
        guard visited <= PropertyList.maxObjects else { throw fail("more than \(PropertyList.maxObjects) objects read") }
        guard reading.insert(ref).inserted else { throw fail("object \(ref) contains itself (a cycle)") }
        defer { reading.remove(ref) }
        let o = offsets[ref]
        func node(_ v: PropertyList.Value) -> PropertyList.Node { PropertyList.Node(value: v, line: 1, column: 1) }
        let marker = b[o]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return node(.bool(false))
            case 0x09: return node(.bool(true))
            default: return node(.data)
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16, o + 1 + size <= b.count else { throw fail("an integer out of the file") }
            return node(.number(try size <= 8 ? String(uint(o + 1, size)) : "0"))
        case 0x2: return node(.number("real"))
        case 0x3: return node(.date("date"))
        case 0x4:
            let (n, start) = try length(o)
            guard n <= b.count - start else { throw fail("data out of the file") }
            return node(.data)
        case 0x5, 0x6:
            let (n, start) = try length(o)
            let wide = marker >> 4 == 0x6
            guard n <= (b.count - start) / (wide ? 2 : 1) else { throw fail("a string out of the file") }
            if wide {
                var units: [UInt16] = []
                units.reserveCapacity(n)
                for k in 0..<n { units.append(UInt16(b[start + 2 * k]) << 8 | UInt16(b[start + 2 * k + 1])) }
                return node(.string(String(decoding: units, as: UTF16.self)))
            }
            return node(.string(String(decoding: b[start..<(start + n)], as: UTF8.self)))
        case 0x8: return node(.data)
        case 0xA:
            let (n, start) = try length(o)
            guard n <= (b.count - start) / refSize else { throw fail("an array out of the file") }
            var items: [PropertyList.Node] = []
            for k in 0..<n { items.append(try object(try uint(start + k * refSize, refSize), depth: depth + 1)) }
            return node(.array(items))
        case 0xD:
            let (n, start) = try length(o)
            guard n <= (b.count - start) / refSize / 2 else { throw fail("a dictionary out of the file") }
            var entries: [PropertyList.Entry] = []
            for k in 0..<n {
                let key = try object(try uint(start + k * refSize, refSize), depth: depth + 1)
                guard case .string(let name) = key.value else { throw fail("a dictionary key that is not a string") }
                let v = try object(try uint(start + (n + k) * refSize, refSize), depth: depth + 1)
                entries.append(PropertyList.Entry(key: name, line: 1, column: 1, value: v))
            }
            return node(.dict(entries))
        default:
            throw fail("an object of unknown kind 0x\(String(marker, radix: 16))")
        }
    }
}
