import CKSchemaDiagnostics
import CKSchemaModel

/// Writes a schema in Apple's CloudKit Schema Language, in the form `cktool export-schema`
/// writes it, for `cktool import-schema`.
///
/// The form, taken from verbatim cktool exports (Apple's sample-cloudkit-tooling schemas):
/// `DEFINE SCHEMA`, a blank line, then each record type indented four spaces, its lines
/// eight; field names padded so that the types line up; all six system fields on every
/// type; fields sorted by the bytes of their names (system names by their unquoted
/// spelling, so `CD_x` comes before `"___createTime"` and `name` after); grants last, one
/// line per role with its permissions merged in the order READ, CREATE, WRITE
/// (`GRANT READ, WRITE TO "_creator"`), roles sorted by the bytes of their names (as
/// Dispatch's export has `GRANT READ TO "_world"` before `GRANT CREATE, WRITE TO moderator`);
/// each type closed by `);` and followed by a blank line. Record types keep the schema's
/// order, custom roles come first as `CREATE ROLE name;`.
///
/// `cktool import-schema` replaces the whole development schema, so the export is always
/// complete: a schema without `Users` gets cktool's default `Users` type (with a note).
/// Whatever the language cannot say (zones, queries, deprecated record types, reference
/// targets, descriptions, indexes on encrypted fields) is left out with a warning, never
/// silently. A deprecated field is written with the convention teams use in the `.ckdb` they
/// maintain, a `// DEPRECATED` comment on the line above it (moolah-native), which the
/// parser reads back as deprecation; cktool ignores comments.
public enum CKDBExporter {
    /// The `Users` record type every container has, as `cktool export-schema` writes it
    /// for a container whose Users type was never changed: `roles LIST<INT64>`,
    /// `"___recordID" REFERENCE QUERYABLE` (the exports of containers in use have it:
    /// moolah-native, HexRain, Walking-Buddy; an export without it diffs as an index
    /// removal against them, and an export with it only as a safe addition against the
    /// older form of Apple's empty-container sample), `GRANT WRITE TO "_creator"` and
    /// `GRANT READ TO "_world"`.
    public static let defaultUsersType = RecordType(
        name: "Users",
        fields: [Field(name: "roles", type: .list(.int64))],
        systemIndexes: [.recordName: IndexKinds([.queryable])],
        grants: [Grant(role: "_creator", permissions: [.write]), Grant(role: "_world", permissions: [.read])]
    )

    /// The schema as cktool sees it, and as `ckschema import` writes it: fields sorted by
    /// the bytes of their names, grants one per role in the order the export writes them
    /// (by the bytes of the role's name), and cktool's default `Users` type added when the
    /// schema has none (every container has one). Record types keep their order. Exporting
    /// this schema and reading the text back gives this schema again, so `import` then
    /// `export` then `import` changes nothing.
    public static func cktoolForm(_ schema: consuming Schema) -> Schema {
        // Consumed, so that a schema nobody else holds is put in order in place, not copied.
        var s = schema
        if s.recordType(named: "Users") == nil { s.recordTypes.append(defaultUsersType) }
        let byName = { (a: Field, b: Field) in utf8Precedes(a.name, b.name) }
        let byRole = { (a: Grant, b: Grant) in utf8Precedes(a.role, b.role) }
        for i in s.recordTypes.indices {
            // cktool's own exports are already in order: check before sorting (a sort, even
            // of sorted fields, would write every field of every type).
            if !isSorted(s.recordTypes[i].fields, by: byName) { s.recordTypes[i].fields.sort(by: byName) }
            if !isSorted(s.recordTypes[i].grants, by: byRole) { s.recordTypes[i].grants = mergedByRole(s.recordTypes[i].grants) }
        }
        return s
    }

    /// True when no element precedes the one before it, read in place.
    private static func isSorted<T>(_ items: [T], by precedes: (T, T) -> Bool) -> Bool {
        items.withUnsafeBufferPointer { b in
            b.count < 2 || !(1..<b.count).contains { precedes(b[$0], b[$0 - 1]) }
        }
    }

    /// `a.utf8.lexicographicallyPrecedes(b.utf8)`, comparing the bytes in place when the
    /// strings are contiguous (native or small), as they are when read from a file.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let n = Swift.min(x.count, y.count)
                var i = 0
                while i < n {
                    if x[i] != y[i] { return x[i] < y[i] }
                    i += 1
                }
                return x.count < y.count
            }
        }
        if let fast, let answer = fast { return answer }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The grants as the export writes them: one per role (a role granted twice gets the
    /// union, at its first grant's origin), sorted by the bytes of the role's name.
    static func mergedByRole(_ grants: [Grant]) -> [Grant] {
        var out: [Grant] = []
        var at: [String: Int] = [:]
        for g in grants {
            if let i = at[g.role] { out[i].permissions.formUnion(g.permissions) } else {
                at[g.role] = out.count
                out.append(g)
            }
        }
        return isSorted(out, by: { utf8Precedes($0.role, $1.role) }) ? out : out.sorted { utf8Precedes($0.role, $1.role) }
    }

    /// The `.ckdb` text of `schema`, and a diagnostic for everything it could not express.
    ///
    /// Diagnostics are warnings (CK220, CK221), a note (CK222) and, for a name that cannot be
    /// written at all (a double quote or line break in it), an error (CK223): the text is
    /// still produced, but cktool would not read that name back.
    public static func export(_ schema: Schema) -> (text: String, diagnostics: [Diagnostic]) {
        var notes = Notes(schema: schema)
        // Written as bytes: a large schema has 100,000 lines of small pieces, and appending
        // bytes to an array is several times cheaper than appending to a String.
        var out = TextBuffer(capacity: schema.recordTypes.reduce(1024) { $0 + 600 + $1.fields.count * 56 })
        out += "DEFINE SCHEMA\n\n"
        if !schema.roles.isEmpty {
            for role in schema.roles {
                notes.checkWritable(role.name, what: "role", origin: role.origin)
                out += "    CREATE ROLE \(quoted(role.name, isField: false));\n"
            }
            out += "\n"
        }
        var types = schema.recordTypes
        if schema.recordType(named: "Users") == nil {
            types.append(defaultUsersType)
            notes.diagnostics.append(Diagnostic(
                code: CKDBRules.usersAdded.code, severity: .note, location: schema.origin.location,
                message: "the schema has no Users record type; the export adds cktool's default one (roles LIST<INT64>, \"___recordID\" REFERENCE QUERYABLE, GRANT WRITE TO \"_creator\", GRANT READ TO \"_world\")",
                fix: "cktool import-schema replaces the whole schema; add Users to the schema to control its shape"))
        }
        for (i, type) in types.enumerated() {
            if i > 0 { out += "\n" }
            write(type, to: &out, notes: &notes)
        }
        notes.finish()
        return (out.text, notes.diagnostics)
    }

    /// One line of a record type's body before it is written: the name as written, the
    /// sort key (the unquoted name), and what follows the padding.
    private struct Entry {
        var key: String
        var name: String
        var system: SystemField?
        var type = FieldType(.string)
        var encrypted = false
        var indexes = IndexKinds()
        var width = 0
        var deprecated = false
    }

    private static let quotedSystemNames: [SystemField: String] =
        Dictionary(uniqueKeysWithValues: SystemField.allCases.map { ($0, "\"" + $0.ckdbName + "\"") })

    private static func write(_ type: RecordType, to out: inout TextBuffer, notes: inout Notes) {
        notes.check(type)
        out += "    RECORD TYPE "
        out += quoted(type.name, isField: false)
        out += " (\n"

        var entries: [Entry] = []
        entries.reserveCapacity(SystemField.allCases.count + type.fields.count)
        for system in SystemField.allCases {
            entries.append(Entry(key: system.ckdbName, name: quotedSystemNames[system]!, system: system, indexes: type.indexes(on: system)))
        }
        for field in type.fields {
            notes.check(field, in: type)
            var indexes = field.indexes
            var encrypted = field.isEncrypted
            if encrypted, !encryptable.contains(field.type.primitive) {
                notes.diagnostics.append(Diagnostic(
                    rule: CKDBRules.encryptedIndexDropped,
                    "field \(type.name).\(field.name) is marked encrypted, but \(field.type.primitive.ckdbKeyword) cannot be ENCRYPTED in .ckdb; it is exported without ENCRYPTED",
                    at: field.origin.location, fix: "remove encrypted from the field, or change its type"))
                encrypted = false
            }
            if encrypted, !indexes.isEmpty {
                // CloudKit cannot index what it cannot read: cktool refuses an encrypted indexed field.
                notes.diagnostics.append(Diagnostic(
                    rule: CKDBRules.encryptedIndexDropped,
                    "field \(type.name).\(field.name) is encrypted and cannot be \(indexes.kinds.map { $0.rawValue.uppercased() }.joined(separator: " ")); the export leaves the index out",
                    at: field.origin.location, fix: "remove the index from the schema, or keep a plaintext copy of the value in another field to query it"))
                indexes = IndexKinds()
            }
            entries.append(Entry(key: field.name, name: quoted(field.name, isField: true), type: field.type, encrypted: encrypted, indexes: indexes,
                                 deprecated: field.isDeprecated))
        }
        let byKey = { (a: Entry, b: Entry) in utf8Precedes(a.key, b.key) }
        if zip(entries, entries.dropFirst()).contains(where: { !byKey($0, $1) }) { entries.sort(by: byKey) }

        // One line per role, as cktool writes them: `GRANT READ, WRITE TO "_creator"`.
        let grantLines = mergedByRole(type.grants).filter { !$0.permissions.isEmpty }

        for i in entries.indices { entries[i].width = displayWidth(entries[i].name) }
        let width = entries.reduce(0) { max($0, $1.width) }
        let total = entries.count + grantLines.count
        var n = 0
        for e in entries {
            n += 1
            if e.deprecated { out += "        // DEPRECATED\n" }
            out += "        "
            out += e.name
            out.spaces(width - e.width + 1)
            if let system = e.system {
                out += system.type.ckdbKeyword
            } else {
                appendType(e.type, encrypted: e.encrypted, to: &out)
            }
            for k in e.indexes {
                out += " "
                out += k.keyword
            }
            out += n < total ? ",\n" : "\n"
        }
        for grant in grantLines {
            n += 1
            out += "        GRANT "
            for (k, permission) in grant.sortedPermissions.enumerated() {
                if k > 0 { out += ", " }
                out += permission.keyword
            }
            out += " TO "
            out += quoted(grant.role, isField: false)
            out += n < total ? ",\n" : "\n"
        }
        out += "    );\n"
    }

    /// Columns a name takes: its Unicode scalars (UTF-8 bytes that start one).
    private static func displayWidth(_ s: String) -> Int {
        if let n = s.utf8.withContiguousStorageIfAvailable({ buf in
            var n = 0
            for b in buf where b & 0xC0 != 0x80 { n += 1 }
            return n
        }) { return n }
        return s.unicodeScalars.count
    }

    private static func appendType(_ t: FieldType, encrypted: Bool, to out: inout TextBuffer) {
        if t.isList { out += "LIST<" }
        if encrypted { out += "ENCRYPTED " }
        out += t.primitive.ckdbKeyword
        if t.primitive == .number, let p = t.preferred {
            out += " PREFERRED AS "
            out += p.ckdbKeyword
        }
        if t.isList { out += ">" }
    }

    static var encryptable: Set<PrimitiveType> { CloudKitRules.encryptable }

    /// A type as the language spells it: `ENCRYPTED STRING`, `LIST<INT64>`, `NUMBER PREFERRED AS DOUBLE`.
    static func spell(_ t: FieldType, encrypted: Bool) -> String {
        var out = TextBuffer(capacity: 32)
        appendType(t, encrypted: encrypted, to: &out)
        return out.text
    }

    /// A name as written: bare when it is a plain identifier (a letter, then letters, digits
    /// and `_`), otherwise in double quotes, as cktool writes `"___recordID"`, `"_world"` and
    /// `"cloudkit.share"`. A field named `grant` is quoted so it is not read as a GRANT.
    static func quoted(_ name: String, isField: Bool) -> String {
        var plain = !name.isEmpty
        var first = true
        for c in name.utf8 {
            let letter = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A)
            if first ? !letter : !(letter || (c >= 0x30 && c <= 0x39) || c == 0x5F) {
                plain = false
                break
            }
            first = false
        }
        if plain, isField, name.utf8.count == 5, name.lowercased() == "grant" { plain = false }
        return plain ? name : "\"" + name + "\""
    }
}

/// Collects what the export cannot express, one warning per kind of loss, naming the elements.
private struct Notes {
    let schema: Schema
    var diagnostics: [Diagnostic] = []
    private var placed: [(String, Origin)] = []
    private var deprecated: [(String, Origin)] = []
    private var targets: [(String, Origin)] = []
    private var described: [(String, Origin)] = []

    init(schema: Schema) {
        self.schema = schema
        let at = schema.origin.location
        if let container = schema.container {
            diagnostics.append(Diagnostic(
                rule: CKDBRules.notExpressible,
                "the container \(container) is not part of a .ckdb file; it is left out", at: at,
                fix: "pass it to cktool import-schema as --container-id \(container)"))
        }
        if !schema.zones.isEmpty {
            diagnostics.append(Diagnostic(
                rule: CKDBRules.notExpressible,
                "zones cannot be expressed in .ckdb; left out: " + Self.list(schema.zones.map(\.name)),
                at: schema.zones[0].origin.location ?? at, fix: "the app creates zones at run time; the YAML schema keeps them"))
        }
        if !schema.queries.isEmpty {
            diagnostics.append(Diagnostic(
                rule: CKDBRules.notExpressible,
                "declared queries cannot be expressed in .ckdb; left out: " + Self.list(schema.queries.map(\.label)),
                at: schema.queries[0].origin.location ?? at, fix: "the indexes they need are exported; keep the queries in the YAML schema"))
        }
        if !schema.subscriptions.isEmpty {
            diagnostics.append(Diagnostic(
                rule: CKDBRules.notExpressible,
                "subscriptions cannot be expressed in .ckdb; left out: " + Self.list(schema.subscriptions.map(\.id)),
                at: schema.subscriptions[0].origin.location ?? at, fix: "the app saves subscriptions at run time; keep them in the YAML schema"))
        }
    }

    mutating func checkWritable(_ name: String, what: String, origin: Origin) {
        if name.utf8.contains(where: { $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
            diagnostics.append(Diagnostic(
                rule: CKDBRules.unwritableName,
                "the \(what) name \(name.debugDescription) contains a double quote or a line break, which the CloudKit Schema Language cannot write",
                at: origin.location ?? schema.origin.location, fix: "rename it"))
        }
    }

    mutating func check(_ type: RecordType) {
        checkWritable(type.name, what: "record type", origin: type.origin)
        if type.zone != nil || type.database != nil || !type.requiredCapabilities.isEmpty { placed.append((type.name, type.origin)) }
        if type.isDeprecated { deprecated.append((type.name, type.origin)) }
        if type.description != nil { described.append((type.name, type.origin)) }
        for grant in type.grants { checkWritable(grant.role, what: "role", origin: grant.origin) }
    }

    mutating func check(_ field: Field, in type: RecordType) {
        checkWritable(field.name, what: "field", origin: field.origin)
        guard field.referenceTarget != nil || field.referenceAction != nil || field.description != nil else { return }
        let label = type.name + "." + field.name
        if field.referenceTarget != nil || field.referenceAction != nil { targets.append((label, field.origin)) }
        if field.description != nil { described.append((label, field.origin)) }
    }

    mutating func finish() {
        add(placed, "the zone, database or required zone capabilities of a record type cannot be expressed in .ckdb (record types are container-wide); left out for")
        add(deprecated, "a deprecated record type cannot be marked in .ckdb (fields get a `// DEPRECATED` comment); exported as an ordinary record type")
        add(targets, "reference targets and delete actions cannot be expressed in .ckdb (a REFERENCE names no type); left out for")
        add(described, "descriptions cannot be expressed in .ckdb; left out for")
    }

    private mutating func add(_ items: [(String, Origin)], _ message: String) {
        guard let first = items.first else { return }
        diagnostics.append(Diagnostic(
            rule: CKDBRules.notExpressible, message + ": " + Self.list(items.map(\.0)),
            at: first.1.location ?? schema.origin.location, fix: "the YAML schema keeps them; only the .ckdb export leaves them out"))
    }

    static func list(_ names: [String]) -> String {
        let shown = names.prefix(5).joined(separator: ", ")
        return names.count > 5 ? shown + " and \(names.count - 5) more" : shown
    }
}

extension Permission {
    /// The upper-case keyword of the CloudKit Schema Language (`READ`).
    var keyword: String {
        switch self {
        case .read: "READ"
        case .create: "CREATE"
        case .write: "WRITE"
        }
    }
}

extension IndexKind {
    /// The upper-case keyword of the CloudKit Schema Language (`QUERYABLE`).
    var keyword: String {
        switch self {
        case .queryable: "QUERYABLE"
        case .searchable: "SEARCHABLE"
        case .sortable: "SORTABLE"
        }
    }
}

/// UTF-8 text built by appending bytes (the exporter's output buffer).
struct TextBuffer {
    private var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    static func += (buffer: inout TextBuffer, text: String) {
        buffer.bytes.append(contentsOf: text.utf8)
    }

    /// Appends `n` spaces.
    mutating func spaces(_ n: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: n))
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
