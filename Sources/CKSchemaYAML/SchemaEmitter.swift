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
                if w.bytes.count >= Writer.chunk { w.flush() }
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
        return w.render(comments: comments)
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
        let base = "recordTypes.\(t.name)"
        let hasBody = t.description != nil || t.zone != nil || t.database != nil || t.isDeprecated || !t.requiredCapabilities.isEmpty
            || !t.systemIndexes.isEmpty || !t.fields.isEmpty || !t.grants.isEmpty
        guard hasBody else {
            w.add("  \(key(t.name)): {}", source: t.origin.location?.line)
            return
        }
        w.add("  \(key(t.name)):", source: t.origin.location?.line)
        if let d = t.description { w.add("    description: \(scalar(d))", source: keyLines["\(base).description"]) }
        if let z = t.zone { w.add("    zone: \(scalar(z))", source: keyLines["\(base).zone"]) }
        if let db = t.database { w.add("    database: \(db.rawValue)", source: keyLines["\(base).database"]) }
        if t.isDeprecated { w.add("    deprecated: true", source: keyLines["\(base).deprecated"]) }
        if !t.requiredCapabilities.isEmpty {
            w.add("    requires: " + flowList(t.requiredCapabilities.sorted().map(\.rawValue)), source: keyLines["\(base).requires"])
        }
        let system = systemOrder.filter { !(t.systemIndexes[$0] ?? []).isEmpty }
        if !system.isEmpty {
            w.add("    system:", source: keyLines["\(base).system"])
            for s in system {
                w.add("      \(s.rawValue): " + flowList(t.indexes(on: s).kinds.map(\.rawValue)), source: keyLines["\(base).system.\(s.rawValue)"])
            }
        }
        if !t.fields.isEmpty {
            w.add("    fields:", source: keyLines["\(base).fields"])
            if w.direct {
                // The hot loop of a large schema: bytes straight into the output, no String
                // per field, and each field borrowed in place rather than copied.
                t.fields.withUnsafeBufferPointer { fields in
                    guard let first = fields.baseAddress else { return }
                    for i in fields.indices { appendFieldLine(first + i, to: &w.bytes) }
                }
            } else {
                for f in t.fields {
                    w.add("      \(key(f.name)): " + fieldValue(f), source: f.origin.location?.line)
                }
            }
        }
        if !t.grants.isEmpty {
            w.add("    grants:", source: keyLines["\(base).grants"])
            for g in t.grants {
                w.add("      \(key(g.role)): " + flowList(g.sortedPermissions.map(\.rawValue)), source: g.origin.location?.line)
            }
        }
    }

    /// A field's value: the bare type when nothing else is said, else a flow mapping.
    static func fieldValue(_ f: Field) -> String {
        var out: [UInt8] = []
        withUnsafePointer(to: f) { appendFieldValue($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `      name: value\n`, the line of one field in a comment-free output. The field is read
    /// through a pointer: passing it by value copies it (a retain per string it holds).
    @inline(__always) private static func appendFieldLine(_ f: UnsafePointer<Field>, to out: inout [UInt8]) {
        out.append(contentsOf: fieldIndent)
        appendScalar(f.pointee.name, inFlow: false, to: &out)
        out.append(0x3A)  // ':'
        out.append(0x20)
        appendFieldValue(f, to: &out)
        out.append(0x0A)
    }

    private static let fieldIndent: [UInt8] = Array("      ".utf8)

    /// Appends a field's value to `out` as UTF-8 (built in place: this runs once per field).
    static func appendFieldValue(_ f: UnsafePointer<Field>, to out: inout [UInt8]) {
        var open = false
        let type = f.pointee.type  // what `part` captures
        func part(_ key: StaticString) {
            if open {
                out.append(0x2C)  // ", "
                out.append(0x20)
            } else {
                append("{ type: ", to: &out)
                appendType(type, to: &out)
                out.append(0x2C)
                out.append(0x20)
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
            out.append(contentsOf: indexLists[Int(f.pointee.indexes.rawBits)])
        }
        if f.pointee.isDeprecated { part("deprecated: true") }
        if let d = f.pointee.description {
            part("description: ")
            appendScalar(d, inFlow: true, to: &out)
        }
        if f.pointee.mayBeAbsent { part("onDemand: true") }
        if open {
            out.append(0x20)
            out.append(0x7D)  // ' }'
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
    private static func appendType(_ t: FieldType, to out: inout [UInt8]) {
        if t.isList { append("list<", to: &out) }
        appendWord(t.primitive.rawValue, to: &out)
        if let p = t.preferred {
            out.append(0x3C)  // '<'
            appendWord(p.rawValue, to: &out)
            out.append(0x3E)
        }
        if t.isList { out.append(0x3E) }  // '>'
    }

    /// A short ASCII word (an enum's raw value) appended from its bytes in place: the
    /// generic append of a `String.UTF8View` costs twice as much, once per field.
    @inline(__always) private static func appendWord(_ s: String, to out: inout [UInt8]) {
        if s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: s.utf8)
        }
    }

    private static func append(_ s: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// `scalar(s, inFlow:)` appended as UTF-8: an identifier's bytes are checked and copied
    /// in one pass, without building a String.
    static func appendScalar(_ s: String, inFlow: Bool, to out: inout [UInt8]) {
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard isPlainIdentifier(bytes) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied != true { out.append(contentsOf: scalar(s, inFlow: inFlow).utf8) }
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

    /// True for an identifier that is plain for certain: a letter, then letters, digits and
    /// `_ . - / < >`, and not possibly one of YAML's keywords (false means: check further).
    static func isPlainIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let b = bytes.first, isASCIILetter(b) else { return false }
        for c in bytes where !(isASCIILetter(c) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2E || c == 0x2D || c == 0x2F || c == 0x3C || c == 0x3E) {
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
        /// With no comments to place, lines go straight into `bytes` (a large schema has
        /// 100,000 of them; keeping them apart only to join them costs as much as writing them).
        let direct: Bool
        /// In direct mode, the output not yet moved to `text`, as UTF-8 bytes (appending bytes
        /// is cheaper than appending to a String, which re-checks its ASCII flag every time).
        var bytes: [UInt8] = []
        /// The output in direct mode that `bytes` is moved into a chunk at a time: the chunk
        /// stays in cache, and the text is built once instead of copied whole at the end.
        var text = ""
        static let chunk = 1 << 16

        mutating func flush() {
            text += String(decoding: bytes, as: UTF8.self)
            bytes.removeAll(keepingCapacity: true)
        }
        mutating func write(_ s: String) { bytes.append(contentsOf: s.utf8) }

        init(direct: Bool = false) { self.direct = direct }

        mutating func add(_ line: String, source: Int?) {
            if direct {
                write(line)
                bytes.append(0x0A)
            } else {
                lines.append((line, source))
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
