import CKSchemaModel

/// Writes a schema in the canonical YAML form of `docs/schema-format.md`: a fixed key
/// order, flow mappings for fields, zones and queries, the one-word shorthand where a
/// field has nothing but a type, and the comments of the source put back.
public enum SchemaEmitter {
    /// The canonical text of a schema. `comments` and `keyLines` come from `SchemaFile`
    /// when formatting a file in place; without them the output has no comments. `header`
    /// (comment lines, each ending in a line break) comes first, written into the same text.
    public static func emit(_ schema: Schema, comments: [SourceComment] = [], keyLines: [String: Int] = [:], header: String = "") -> String {
        guard comments.isEmpty || header.isEmpty else { return header + emit(schema, comments: comments, keyLines: keyLines) }
        var w = Writer(direct: comments.isEmpty)
        if w.direct {
            // About what the text will take, so the buffer is not copied as it grows (an
            // indexed field's line is about 80 bytes; pages reserved and never written cost
            // nothing, a copy of the whole text as it doubles costs a page fault per page).
            w.text.reserveCapacity(schema.recordTypes.reduce(256 + header.utf8.count) { $0 + 128 + $1.fields.count * 96 })
            w.write(header)
        }
        emit(schema, keyLines: keyLines, into: &w)
        return w.render(comments: comments)
    }

    /// The bytes of `emit(schema, header: header)` (no comments), given to `chunk` a piece at a
    /// time (about 64 KB each, in order) instead of gathered into one text: a large schema's
    /// output is written out as it is made and never held whole (its 20 MB cost a page fault
    /// per 4 KB page). A piece is valid only during the call. When `chunk` throws, no further
    /// piece is given and the error is rethrown.
    public static func emit<E: Error>(_ schema: Schema, header: String = "", chunk: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        var failure: E?
        withoutActuallyEscaping({ (bytes: UnsafeRawBufferPointer) -> Bool in
            do throws(E) {
                try chunk(bytes)
                return true
            } catch {
                failure = error
                return false
            }
        }) { sink in
            var w = Writer(direct: true, sink: sink)
            w.write(header)
            emit(schema, keyLines: [:], into: &w)
            w.flush()
        }
        if let failure { throw failure }
    }

    /// The lines of `schema` into `w`.
    private static func emit(_ schema: Schema, keyLines: [String: Int], into w: inout Writer) {
        let line = { (path: String) -> Int? in keyLines[path] }
        w.add("ckschema: \(Schema.formatVersion)", source: line("ckschema"))
        if schema.isPartial { w.add("partial: true", source: line("partial")) }
        if let c = schema.container { w.add("container: \(scalar(c))", source: line("container")) }
        if !schema.roles.isEmpty {
            w.add("roles: " + flowList(schema.roles.map(\.name)), source: line("roles"))
        }
        if !schema.zones.isEmpty {
            w.add("zones:", source: line("zones"))
            for z in schema.zones {
                var parts = ["database: \(z.database.rawValue)"]
                if !z.capabilities.isEmpty { parts.append("capabilities: " + flowList(z.capabilities.sorted().map(\.rawValue))) }
                w.add("  \(key(z.name)): { " + parts.joined(separator: ", ") + " }", source: z.origin.location?.line)
            }
        }
        if !schema.recordTypes.isEmpty {
            w.add("recordTypes:", source: line("recordTypes"))
            for t in schema.recordTypes {
                emit(t, into: &w, keyLines: keyLines)
                if w.pending >= Writer.chunk { w.flush() }
                if w.failed { return }
            }
        }
        if !schema.queries.isEmpty {
            w.add("queries:", source: line("queries"))
            for q in schema.queries {
                var parts: [String] = []
                if let n = q.name { parts.append("name: \(scalar(n, inFlow: true))") }
                parts.append("recordType: \(scalar(q.recordType, inFlow: true))")
                if !q.filter.isEmpty { parts.append("filter: " + flowList(q.filter)) }
                if !q.search.isEmpty { parts.append("search: " + flowList(q.search)) }
                if !q.sort.isEmpty { parts.append("sort: " + flowList(q.sort)) }
                if let p = q.predicate { parts.append("predicate: " + quoted(p)) }
                if let db = q.database { parts.append("database: \(db.rawValue)") }
                w.add("  - { " + parts.joined(separator: ", ") + " }", source: q.origin.location?.line)
            }
        }
        if !schema.subscriptions.isEmpty {
            w.add("subscriptions:", source: line("subscriptions"))
            for sub in schema.subscriptions { w.add("  \(key(sub.id)): " + subscriptionValue(sub), source: sub.origin.location?.line) }
        }
    }

    /// A subscription as one flow mapping, keys in a fixed order; the predicate always quoted.
    package static func subscriptionValue(_ s: Subscription) -> String {
        var parts = ["type: \(s.kind.rawValue)", "database: \(s.database.rawValue)"]
        if let z = s.zone { parts.append("zone: \(scalar(z, inFlow: true))") }
        if let t = s.recordType { parts.append("recordType: \(scalar(t, inFlow: true))") }
        if let p = s.predicate { parts.append("predicate: " + quoted(p)) }
        if s.kind == .query || !s.firesOn.isEmpty { parts.append("firesOn: " + flowList(s.firesOn.sorted().map(\.rawValue))) }
        if !s.desiredKeys.isEmpty { parts.append("desiredKeys: " + flowList(s.desiredKeys)) }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// The order system fields are written in.
    static let systemOrder: [SystemField] = [.recordName, .createdAt, .createdBy, .modifiedAt, .modifiedBy, .etag]

    private static func emit(_ t: RecordType, into w: inout Writer, keyLines: [String: Int]) {
        // The key paths are looked up only where comments are placed (`add` takes them unevaluated).
        func line(_ key: String) -> Int? { keyLines["recordTypes.\(t.name).\(key)"] }
        let hasBody = t.description != nil || t.zone != nil || t.database != nil || t.isDeprecated || !t.requiredCapabilities.isEmpty
            || !t.systemIndexes.isEmpty || !t.fields.isEmpty || !t.grants.isEmpty
        guard hasBody else {
            w.add("  \(key(t.name)): {}", source: t.origin.location?.line)
            return
        }
        w.add("  \(key(t.name)):", source: t.origin.location?.line)
        if let d = t.description { w.add("    description: \(scalar(d))", source: line("description")) }
        if let z = t.zone { w.add("    zone: \(scalar(z))", source: line("zone")) }
        if let db = t.database { w.add("    database: \(db.rawValue)", source: line("database")) }
        if t.isDeprecated { w.add("    deprecated: true", source: line("deprecated")) }
        if !t.requiredCapabilities.isEmpty {
            w.add("    requires: " + flowList(t.requiredCapabilities.sorted().map(\.rawValue)), source: line("requires"))
        }
        let system = systemOrder.filter { !(t.systemIndexes[$0] ?? []).isEmpty }
        if !system.isEmpty {
            w.add("    system:", source: line("system"))
            for s in system {
                w.add("      \(s.rawValue): " + flowList(t.indexes(on: s).kinds.map(\.rawValue)), source: line("system.\(s.rawValue)"))
            }
        }
        if !t.fields.isEmpty {
            w.add("    fields:", source: line("fields"))
            if w.direct {
                // The hot loop of a large schema: bytes straight into the output, no String
                // per field, and each field borrowed in place rather than copied.
                t.fields.withUnsafeBufferPointer { fields in
                    guard let first = fields.baseAddress else { return }
                    for i in fields.indices { w.write(.field(first + i)) }
                }
            } else {
                for f in t.fields {
                    w.add("      \(key(f.name)): " + fieldValue(f), source: f.origin.location?.line)
                }
            }
        }
        if !t.grants.isEmpty {
            w.add("    grants:", source: line("grants"))
            if w.direct {
                for g in t.grants { w.write(.grant(g)) }
            } else {
                for g in t.grants {
                    w.add("      \(key(g.role)): " + flowList(g.sortedPermissions.map(\.rawValue)), source: g.origin.location?.line)
                }
            }
        }
    }

    /// A field's value: the bare type when nothing else is said, else a flow mapping.
    static func fieldValue(_ f: Field) -> String {
        var out: [UInt8] = []
        withUnsafePointer(to: f) { appendFieldValue($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// One line of a comment-free output that is written byte by byte (`Writer.write`).
    enum Line {
        /// `      name: value`. The field is read through a pointer: passing it by value copies
        /// it (a retain per string it holds).
        case field(UnsafePointer<Field>)
        /// `      role: [read, write]` (the permissions' words are plain, as `flowList` leaves them).
        case grant(Grant)

        /// At most how many bytes the line takes when that is known cheaply: a name or role of
        /// up to 64 bytes (quoted, at most 6 bytes each and the quotes), the longest value of a
        /// field without a reference target or description (about 150 bytes), the line break.
        /// Nil: the line is built apart and then copied.
        var room: Int? {
            switch self {
            case .field(let f):
                guard Field.plainValueKey(f) != nil, f.pointee.name.utf8.count <= 64 else { return nil }
                return 1024
            case .grant(let g):
                return g.role.utf8.count <= 64 ? 1024 : nil
            }
        }
    }

    /// Appends a line and its line break (in place: this runs once per field). `value`: the
    /// field's value text when already known (`Writer`'s cache).
    static func append<S: ByteSink>(_ line: Line, value: [UInt8]? = nil, to out: inout S) {
        append("      ", to: &out)
        switch line {
        case .field(let f):
            appendScalar(f.pointee.name, inFlow: false, to: &out)
            append(": ", to: &out)
            if let value {
                value.withUnsafeBufferPointer { out.put($0) }
            } else {
                appendFieldValue(f, to: &out)
            }
        case .grant(let g):
            appendScalar(g.role, inFlow: false, to: &out)
            append(": [", to: &out)
            var first = true
            for p in Permission.allCases where g.permissions.contains(p) {
                if !first { append(", ", to: &out) }
                appendWord(p.rawValue, to: &out)
                first = false
            }
            out.put(0x5D)  // ']'
        }
        out.put(0x0A)
    }

    /// Appends a field's value to `out` as UTF-8 (built in place: this runs once per field).
    static func appendFieldValue<S: ByteSink>(_ f: UnsafePointer<Field>, to out: inout S) {
        var open = false
        let type = f.pointee.type  // what `part` captures
        func part(_ key: StaticString) {
            if open {
                append(", ", to: &out)
            } else {
                append("{ type: ", to: &out)
                appendType(type, to: &out)
                append(", ", to: &out)
                open = true
            }
            append(key, to: &out)
        }
        if let to = f.pointee.referenceTarget {
            part("to: ")
            appendScalar(to, inFlow: true, to: &out)
        }
        if let a = f.pointee.referenceAction {
            part("action: ")
            appendWord(a.rawValue, to: &out)
        }
        if f.pointee.isEncrypted { part("encrypted: true") }
        if !f.pointee.indexes.isEmpty {
            // One of seven lists, written whole: building the set's array of kinds and appending
            // each word cost 8% of an import of an export whose every field is indexed.
            part("")
            indexLists[Int(f.pointee.indexes.rawBits)].withUnsafeBufferPointer { out.put($0) }
        }
        if f.pointee.isDeprecated { part("deprecated: true") }
        if let d = f.pointee.description {
            part("description: ")
            appendScalar(d, inFlow: true, to: &out)
        }
        if f.pointee.mayBeAbsent { part("onDemand: true") }
        if open {
            append(" }", to: &out)
        } else {
            appendType(type, to: &out)
        }
    }

    /// `indexes: [...]` for each set of index kinds, by its bits (`IndexKinds.rawBits`), in the
    /// order `IndexKind.allCases` gives.
    private static let indexLists: [[UInt8]] = (0..<8).map { bits in
        Array(("indexes: [" + IndexKinds(bits: UInt8(bits)).kinds.map(\.rawValue).joined(separator: ", ") + "]").utf8)
    }

    /// `FieldType.description`, appended in place.
    private static func appendType<S: ByteSink>(_ t: FieldType, to out: inout S) {
        if t.isList { append("list<", to: &out) }
        appendWord(t.primitive.rawValue, to: &out)
        if let p = t.preferred {
            out.put(0x3C)  // '<'
            appendWord(p.rawValue, to: &out)
            out.put(0x3E)
        }
        if t.isList { out.put(0x3E) }  // '>'
    }

    /// A short ASCII word (an enum's raw value) appended from its bytes in place: the
    /// generic append of a `String.UTF8View` costs twice as much, once per field.
    @inline(__always) private static func appendWord<S: ByteSink>(_ s: String, to out: inout S) {
        var s = s
        s.withUTF8 { out.put($0) }
    }

    @inline(__always) private static func append<S: ByteSink>(_ s: StaticString, to out: inout S) {
        out.put(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// `scalar(s, inFlow:)` appended as UTF-8: an identifier's bytes are checked and copied
    /// in one pass, without building a String.
    static func appendScalar<S: ByteSink>(_ s: String, inFlow: Bool, to out: inout S) {
        var s = s
        let copied = s.withUTF8 { bytes -> Bool in
            guard isPlainIdentifier(bytes) else { return false }
            out.put(bytes)
            return true
        }
        if !copied { appendWord(scalar(s, inFlow: inFlow), to: &out) }
    }

    static func flowList(_ items: [String]) -> String {
        "[" + items.map { scalar($0, inFlow: true) }.joined(separator: ", ") + "]"
    }

    package static func key(_ s: String) -> String { scalar(s, inFlow: false) }

    /// A scalar written plain when YAML reads it back as the same string, else double-quoted.
    package static func scalar(_ s: String, inFlow: Bool = false) -> String {
        isPlainSafe(s, inFlow: inFlow) ? s : quoted(s)
    }

    static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"]

    static func isPlainSafe(_ s: String, inFlow: Bool) -> Bool {
        // Fast path: names and types are identifiers (a letter, then letters, digits and
        // `_ . - / < >`), plain unless they spell a YAML keyword. Read the bytes in place.
        if s.utf8.withContiguousStorageIfAvailable(isPlainIdentifier) == true { return true }
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return false }
        if reserved.contains(s.lowercased()) { return false }
        if first == " " || last == " " || first == "-" || first == "." && s.count == 1 { return false }
        if Double(s) != nil || Int(s) != nil { return false }
        if "0123456789+.".unicodeScalars.contains(first), s.allSatisfy({ $0.isNumber || $0 == "." || $0 == "_" || $0 == "+" || $0 == "e" }) { return false }
        for c in s.unicodeScalars {
            switch c {
            case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "-", "/", "(", ")", "'", "?", "!", ";", "+", "=", "<", ">", "$", "^", "~": continue
            case " ": continue
            case ",", "[", "]", "{", "}": if inFlow { return false }
            case ":", "#", "\"", "\\", "&", "*", "|", "%", "@", "`", "\t", "\n", "\r": return false
            default:
                // NEL, U+2028 and U+2029 are line breaks to a YAML reader; other controls are not
                // allowed raw. Written quoted and escaped, so `fmt` output parses back the same.
                if ControlCharacters.needsEscape(c) || c.value == 0xFEFF || c.value == 0xFFFE || c.value == 0xFFFF { return false }
                continue
            }
        }
        var previous: UInt8 = 0
        for c in s.utf8 {
            if c == 0x20 && previous == 0x20 { return false }
            previous = c
        }
        if first == "'" || first == "?" || first == "!" || first == "[" || first == "{" || first == "," || s.hasPrefix("<<") { return false }
        return true
    }

    /// True for an identifier that is plain for certain: a letter or `_`, then letters, digits and
    /// `_ . - / < >`, and not possibly one of YAML's keywords (false means: check further).
    static func isPlainIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // A leading `_` (`_world`) is as plain as a letter: YAML's indicators and keywords differ.
        guard let b = bytes.first, isASCIILetter(b) || b == 0x5F else { return false }
        // One bit per ASCII byte, in two words: a shift and a test per byte of every name.
        let low: UInt64 = 0x53FF_E000_0000_0000   // 0-9 . - / < >
        let high: UInt64 = 0x07FF_FFFE_87FF_FFFE  // A-Z _ a-z (minus 0x40)
        for c in bytes where !(c < 0x80 && ((c < 0x40 ? low : high) >> UInt64(c & 0x3F)) & 1 != 0) {
            return false
        }
        // YAML's keywords (true, false, yes, no, on, off, null, y, n) start with one of
        // these letters and are at most five long.
        let lower = b | 0x20
        return bytes.count > 5 || !(lower == 0x74 || lower == 0x66 || lower == 0x79 || lower == 0x6E || lower == 0x6F)
    }

    /// Double-quoted: JSON's escapes are all valid in YAML's double-quoted scalars.
    static func isASCIILetter(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }

    /// JSON's escapes, which YAML's double-quoted scalars share. `JSONValue.quote` writes NEL,
    /// U+2028, U+2029, DEL, C1 controls and the BOM as `\u` escapes: raw, a YAML reader takes
    /// the first three for line breaks (the rewritten file no longer parsed).
    static func quoted(_ s: String) -> String {
        var out = ""
        JSONValue.quote(s, into: &out)
        return out
    }

    /// Output lines tagged with the source line they stand for, so comments can follow them.
    struct Writer {
        var lines: [(text: String, source: Int?)] = []
        /// With no comments to place, lines go straight into `storage` (a large schema has
        /// 100,000 of them; keeping them apart only to join them costs as much as writing them).
        let direct: Bool
        /// In direct mode, the output not yet moved to `text`, as UTF-8 bytes: `storage[..<pending]`,
        /// the rest room that a line is written into through a `ByteCursor` (one check of the
        /// room per line, not an `Array.append` per run of bytes, which was 5% of an import).
        private var storage: [UInt8] = []
        private(set) var pending = 0
        /// The output in direct mode that `storage` is moved into a chunk at a time: the chunk
        /// stays in cache, and the text is built once instead of copied whole at the end.
        var text = ""
        /// When set, where the pending output goes instead of `text` (`emit(_:header:chunk:)`);
        /// it returns false to say no more is wanted.
        private let sink: ((UnsafeRawBufferPointer) -> Bool)?
        /// True once `sink` said no more is wanted: further output is dropped.
        private(set) var failed = false
        static let chunk = 1 << 16
        private static let lineBreak = "\n"

        mutating func flush() {
            if let sink {
                if !failed, pending > 0 {
                    failed = !storage.withUnsafeBytes { sink(UnsafeRawBufferPointer(rebasing: $0[..<pending])) }
                }
            } else {
                storage.withUnsafeBufferPointer { text += String(decoding: UnsafeBufferPointer(rebasing: $0[..<pending]), as: UTF8.self) }
            }
            pending = 0
        }

        /// Makes room for `count` more bytes after the pending ones.
        private mutating func reserve(_ count: Int) {
            guard pending + count > storage.count || storage.isEmpty else { return }
            if pending > 0 { flush() }
            if count > storage.count { storage = [UInt8](repeating: 0, count: max(count, Self.chunk + 1024)) }
        }

        /// Writes through a cursor over room for `room` bytes.
        private mutating func withCursor(room: Int, _ body: (inout ByteCursor) -> Void) {
            reserve(room)
            storage.withUnsafeMutableBufferPointer { buffer in
                var cursor = ByteCursor(buffer, at: pending)
                body(&cursor)
                pending = cursor.at
            }
        }

        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            withCursor(room: bytes.count) { $0.put(bytes) }
        }

        mutating func write(_ s: String) {
            var s = s
            s.withUTF8 { write($0) }
        }

        /// The value texts of fields without a reference target or description, by
        /// `Field.plainValueKey` (a schema's thousands of fields share a few dozen values): direct
        /// mapped, a slot's text replaced when another key needs it.
        private var valueKeys = [UInt32](repeating: .max, count: 256)
        private var values = [[UInt8]](repeating: [], count: 256)

        private mutating func value(of f: UnsafePointer<Field>, key: UInt32) -> [UInt8] {
            let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 24)
            if valueKeys[slot] != key {
                var text: [UInt8] = []
                SchemaEmitter.appendFieldValue(f, to: &text)
                valueKeys[slot] = key
                values[slot] = text
            }
            return values[slot]
        }

        mutating func write(_ line: Line) {
            if let room = line.room {
                // `room` is known only for a field without a reference target or description.
                var value: [UInt8]?
                if case .field(let f) = line, let key = Field.plainValueKey(f) { value = self.value(of: f, key: key) }
                withCursor(room: room) { SchemaEmitter.append(line, value: value, to: &$0) }
            } else {
                var apart: [UInt8] = []
                SchemaEmitter.append(line, to: &apart)
                apart.withUnsafeBufferPointer { write($0) }
            }
        }

        init(direct: Bool = false, sink: ((UnsafeRawBufferPointer) -> Bool)? = nil) {
            self.direct = direct || sink != nil
            self.sink = sink
            if self.direct { storage = [UInt8](repeating: 0, count: Self.chunk + 1024) }
        }

        /// `source` is evaluated only when comments are to be placed: in direct mode a line's
        /// key path is not built and looked up (a String built per key was 3% of an import).
        mutating func add(_ line: String, source: @autoclosure () -> Int?) {
            if direct {
                write(line)
                write(Self.lineBreak)
            } else {
                lines.append((line, source()))
            }
        }

        /// The text with comments put back: a leading comment before the first line whose
        /// source line follows it, a trailing one after the line it trailed.
        mutating func render(comments: [SourceComment]) -> String {
            if direct {
                flush()
                return text
            }
            if comments.isEmpty {
                var out = ""
                out.reserveCapacity(lines.reduce(0) { $0 + $1.text.utf8.count + 1 })
                for l in lines {
                    out += l.text
                    out += "\n"
                }
                return out
            }
            var leading: [Int: [SourceComment]] = [:]
            var trailing: [Int: [SourceComment]] = [:]
            var footer: [SourceComment] = []
            var header: [SourceComment] = []
            // Output lines in source order, to find the line each comment belongs to.
            let anchored = lines.indices.compactMap { i in lines[i].source.map { (line: $0, index: i) } }
                .sorted { $0.line < $1.line || ($0.line == $1.line && $0.index > $1.index) }
            let firstSource = anchored.first?.line ?? Int.max
            for c in comments {
                if !c.isTrailing && c.line < firstSource {
                    // Comments above the first key are the file's header and stay on top.
                    header.append(c)
                } else if c.isTrailing, let a = anchored.first(where: { $0.line == c.line }) {
                    trailing[a.index, default: []].append(c)
                } else if let a = anchored.first(where: { $0.line > c.line }) {
                    leading[a.index, default: []].append(c)
                } else {
                    footer.append(c)
                }
            }
            var out = ""
            for c in header { out += "#" + (c.text.isEmpty ? "" : " " + c.text) + "\n" }
            for (i, l) in lines.enumerated() {
                let indent = String(l.text.prefix(while: { $0 == " " }))
                for c in leading[i] ?? [] { out += indent + "#" + (c.text.isEmpty ? "" : " " + c.text) + "\n" }
                out += l.text
                if let t = trailing[i] { out += "  # " + t.map(\.text).joined(separator: " # ") }
                out += "\n"
            }
            for c in footer { out += "#" + (c.text.isEmpty ? "" : " " + c.text) + "\n" }
            return out
        }
    }
}

/// A `#` comment read from a YAML source, kept so that `fmt` can write it back.
public struct SourceComment: Sendable, Hashable {
    public var line: Int
    public var text: String
    /// True when it follows code on its line.
    public var isTrailing: Bool
    public init(line: Int, text: String, isTrailing: Bool) { self.line = line; self.text = text; self.isTrailing = isTrailing }
}

/// Where the emitter's bytes go: an array (a line built apart) or a `ByteCursor`.
protocol ByteSink {
    mutating func put(_ byte: UInt8)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteSink where Element == UInt8 {
    mutating func put(_ byte: UInt8) { append(byte) }
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// Writes bytes into room made ahead (`SchemaEmitter.Writer`); every write is checked against
/// the room's end, so a wrong estimate of a line's length stops the program rather than write
/// past the buffer.
struct ByteCursor: ByteSink {
    private let base: UnsafeMutablePointer<UInt8>
    private let end: Int
    private(set) var at: Int

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>, at: Int) {
        base = buffer.baseAddress!
        end = buffer.count
        self.at = at
    }

    @inline(__always) mutating func put(_ byte: UInt8) {
        precondition(at < end, "ByteCursor: no room")
        base[at] = byte
        at += 1
    }

    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        precondition(n <= end - at, "ByteCursor: no room")
        guard let from = bytes.baseAddress else { return }
        let to = base + at
        // Short runs (names, keys) as two overlapping 8- or 4-byte words, each read and written
        // inside the run; a byte loop or a `memcpy` call costs more for runs this short.
        if n >= 8 && n <= 16 {
            let raw = UnsafeRawPointer(from)
            UnsafeMutableRawPointer(to).storeBytes(of: raw.loadUnaligned(as: UInt64.self), as: UInt64.self)
            UnsafeMutableRawPointer(to + n - 8).storeBytes(of: raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), as: UInt64.self)
        } else if n >= 4 && n < 8 {
            let raw = UnsafeRawPointer(from)
            UnsafeMutableRawPointer(to).storeBytes(of: raw.loadUnaligned(as: UInt32.self), as: UInt32.self)
            UnsafeMutableRawPointer(to + n - 4).storeBytes(of: raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self), as: UInt32.self)
        } else if n < 4 {
            for k in 0..<n { to[k] = from[k] }
        } else {
            to.update(from: from, count: n)
        }
        at += n
    }
}
