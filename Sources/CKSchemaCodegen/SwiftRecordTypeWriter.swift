import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaPredicate

/// The file of one record type: its wrapper struct, keys, initializers, properties and the
/// functions of its declared queries.
struct SwiftRecordTypeWriter {
    let schema: Schema
    let type: RecordType
    let names: NamePlan.TypeNames
    let plan: NamePlan
    let access: String
    var diagnostics: [Diagnostic] = []
    private let out: SwiftText
    /// What each custom field's declarations spell, worked out once (a field is written twice:
    /// its property and its key).
    private let facts: [FieldFacts]

    /// A custom field's Swift spellings.
    struct FieldFacts {
        /// The property's and key's name as written (backticked when a keyword).
        var spelled: String
        /// The Swift value type (`String`, `[CKRecord.Reference]`).
        var value: String
        /// The field's name as a string literal.
        var literal: String
        /// The doc comment's line: `` /// `title`: string, queryable. ``
        var doc: String
    }

    init(schema: Schema, type: RecordType, names: NamePlan.TypeNames, plan: NamePlan, access: String) {
        self.schema = schema
        self.type = type
        self.names = names
        self.plan = plan
        self.access = access
        // About 330 bytes a field (property and key) and 1.5 KB for the rest.
        out = SwiftText(capacity: 1_536 + 330 * type.fields.count)
        facts = zip(type.fields, names.fields).map { field, name in
            FieldFacts(spelled: SwiftNames.spelled(name), value: SwiftTypes.value(field.type), literal: SwiftNames.literal(field.name),
                       doc: "/// `\(SwiftNames.comment(field.name))`: \(SwiftNames.comment(SwiftTypes.summary(field))).")
        }
    }

    /// True when a custom zone holds the type's records.
    private var customZone: String? {
        guard let zone = type.zone, zone != Zone.defaultZoneName else { return nil }
        return zone
    }

    /// The file: `prefix` (its header and imports), then the type's extension of the namespace.
    mutating func text(prefix: String = "") -> String {
        out.raw(prefix)
        let swift = names.swiftName
        out.line("extension \(plan.namespace) {")
        out.indent {
            var place = [String]()
            if let db = schema.database(of: type) { place.append("\(db.rawValue) database") }
            if let zone = customZone { place.append("zone `\(SwiftNames.comment(zone))`") }
            let where_ = place.isEmpty ? "" : " (" + place.joined(separator: ", ") + ")"
            out.line("/// The record type `\(SwiftNames.comment(type.name))`\(where_).")
            if let d = type.description { out.line("///"); out.line("/// \(SwiftNames.comment(d))") }
            if type.isDeprecated { out.line("@available(*, deprecated, message: \"deprecated in the schema\")") }
            let queryAll = type.indexes(on: .recordName).contains(.queryable)
            out.line("\(access)struct \(SwiftNames.spelled(swift)): Record\(queryAll ? ", RecordNameQueryable" : "") {")
            out.indent { body() }
            out.line("}")
        }
        out.line("}")
        return out.text
    }

    private mutating func body() {
        out.line("/// The record type's name.")
        out.line("\(access)static let recordType: CKRecord.RecordType = \(SwiftNames.literal(type.name))")
        if let db = schema.database(of: type) {
            out.blank()
            out.line("/// The database its records live in.")
            out.line("\(access)static var databaseScope: CKDatabase.Scope { .\(db.rawValue) }")
        }
        out.blank()
        out.line("/// The record this value reads and writes.")
        out.line("\(access)let record: CKRecord")
        out.blank()
        initializers()
        // The system fields' properties (recordName, createdAt, ...) are declared once, on
        // Record, in the shared file.
        for (field, facts) in zip(type.fields, facts) { property(field, facts) }
        keys()
        queries()
    }

    private mutating func initializers() {
        let zoneType = plan.zoneType(customZone)
        out.line("/// Wraps a record; throws `RecordError` for a record of another type\(customZone == nil ? "" : " or zone").")
        out.line("\(access)init(record: CKRecord) throws {")
        out.indent {
            out.line("try Self.check(record, zone: \(customZone == nil ? "nil" : zoneType + ".name"))")
            out.line("self.record = record")
        }
        out.line("}")
        out.blank()
        out.line("/// A new record named `recordName` in \(customZone == nil ? "the default zone" : "its zone, `\(zoneType)`").")
        let defaultValue = customZone == nil ? " = \(zoneType)()" : ""
        out.line("\(access)init(recordName: String, in zone: \(zoneType)\(defaultValue)) {")
        out.line("  record = Self.newRecord(recordName, zone.zoneID)")
        out.line("}")
        out.blank()
        if customZone == nil, schema.zones.isEmpty {
            // The schema says nothing of zones (a .ckdb file cannot): any zone may hold it.
            out.line("/// A new record named `recordName` in the zone `zoneID` (the schema declares no zones).")
            out.line("\(access)init(recordName: String, zoneID: CKRecordZone.ID) {")
            out.line("  record = Self.newRecord(recordName, zoneID)")
            out.line("}")
            out.blank()
        }
    }

    /// One property: a call of the shared accessor (`fieldValue` or `encryptedValue`, whose
    /// one body the type checker reads once) rather than a subscript of its own, which would
    /// make it pick among the SDK's three `CKRecord` subscripts in every accessor.
    private mutating func property(_ field: Field, _ f: FieldFacts) {
        let (read, write) = field.isEncrypted ? ("encryptedValue", "setEncryptedValue") : ("fieldValue", "setFieldValue")
        out.line(f.doc)
        if let d = field.description { out.line("///"); out.line("/// \(SwiftNames.comment(d))") }
        if field.isDeprecated {
            // A deprecated field is kept for the records that have it: it reads, and never writes.
            out.line("@available(*, deprecated, message: \"deprecated in the schema; it can be read, not written\")")
            out.line("\(access)var \(f.spelled): \(f.value)? { \(read)(\(f.literal)) }")
        } else {
            out.line("\(access)var \(f.spelled): \(f.value)? {")
            out.line("  get { \(read)(\(f.literal)) }")
            out.line("  nonmutating set { \(write)(\(f.literal), newValue) }")
            out.line("}")
        }
        out.blank()
    }

    private mutating func keys() {
        out.line("/// The keys of the record type's fields, typed by value and indexes (the system fields'")
        out.line("/// keys, `Key.recordName` ..., come from `Keys`).")
        out.line("\(access)enum Key: Keys {")
        out.indent {
            // The system keys are declared once, on `Keys`: a type says only which of its system
            // fields have indexes (a `static let` costs the type checker as much as a field).
            out.line("\(access)typealias Root = \(SwiftNames.spelled(names.swiftName))")
            for s in SwiftTypes.systemOrder where !type.indexes(on: s).isEmpty {
                let name = s.rawValue.prefix(1).uppercased() + s.rawValue.dropFirst() + "Index"
                out.line("\(access)typealias \(name) = \(SwiftTypes.systemMarker(type.indexes(on: s)))")
            }
            for (field, f) in zip(type.fields, facts) {
                out.blank()
                out.line(f.doc)
                if field.isDeprecated { out.line("@available(*, deprecated, message: \"deprecated in the schema\")") }
                declareKey(f.spelled, "Field<\(f.value), \(SwiftTypes.marker(field))>(\(f.literal))")
            }
        }
        out.line("}")
    }

    /// `static let name = value` (`name` as spelled), broken after `=` when it is longer than a line.
    private mutating func declareKey(_ name: String, _ value: String) {
        let head = "\(access)static let \(name) ="
        if out.fits(head + " " + value) {
            out.line(head + " " + value)
        } else {
            out.line(head)
            out.line("  " + value)
        }
    }

    private mutating func queries() {
        var seen: [String: String] = [:]
        let reserved = NamePlan.queryReserved
        var number = 0
        for q in schema.queries where q.recordType == type.name {
            number += 1
            let fn = q.name.map { SwiftNames.camelCased($0) } ?? "declaredQuery\(number)"
            let name = SwiftNames.identifier(fn, reserved: reserved)
            let label = q.name ?? q.label
            if let other = seen[name] {
                diagnostics.append(Diagnostic(
                    rule: CodegenRules.nameCollision,
                    "query '\(ControlCharacters.escaped(label))' and query '\(ControlCharacters.escaped(other))' both become '\(type.name).\(name)'",
                    at: q.origin.location, fix: "rename one of them (docs/codegen.md gives the naming rules)"))
                continue
            }
            seen[name] = label
            if let problem = problem(of: q) {
                diagnostics.append(Diagnostic(
                    rule: CodegenRules.queryNotGenerated,
                    "query '\(ControlCharacters.escaped(label))' has no generated function: \(problem)",
                    at: q.origin.location, fix: "add the index in the schema (and deploy it), or change the query"))
                continue
            }
            query(q, name)
        }
    }

    /// A resolved key of the type: its Swift name and value type.
    private func resolve(_ name: String) -> (swift: String, value: String)? {
        if let i = type.fields.firstIndex(where: { $0.name == name }) {
            return (names.fields[i], SwiftTypes.value(type.fields[i].type))
        }
        if let s = SystemField(rawValue: name) ?? QueryPredicateKey.systemKeys[name] {
            return (s.rawValue, SwiftTypes.system(s).value)
        }
        return nil
    }

    /// Why the generated function for `q` would not compile, or nil: production could not run
    /// the query, by the answer lint's CK110 gives (`DeclaredQuery.shortfalls(on:)`), and the
    /// generated API, whose keys carry the indexes CloudKit holds, refuses what production refuses.
    /// One reason is given, a sort's first.
    private func problem(of q: DeclaredQuery) -> String? {
        let shortfalls = q.shortfalls(on: type)
        guard let first = shortfalls.first(where: { $0.need?.use == .sort }) ?? shortfalls.first else { return nil }
        guard let need = first.need else {
            if case .predicate(let error) = first { return "its predicate: \(error.message)" }
            return "it queries every record, which needs a queryable recordName (system: { recordName: [queryable] })"
        }
        let field = need.name, kind = need.index
        if case .unknownField = first { return "'\(type.name)' has no field '\(ControlCharacters.escaped(field))'" }
        if need.field?.isEncrypted == true { return "'\(field)' is encrypted, and an encrypted field has no index" }
        if case .refusedIndex = first, let f = need.field {
            if kind == .searchable, f.type.primitive != .string, f.type.primitive != .asset { return "'\(field)' is not a string, and only strings are searched for words" }
            if kind == .sortable, f.type.isList { return "'\(field)' is a list, and a list has no order to sort by" }
        }
        return "'\(field)' is not \(kind.rawValue)"
    }

    private mutating func query(_ q: DeclaredQuery, _ name: String) {
        let me = SwiftNames.spelled(names.swiftName)
        var summary: [String] = []
        if !q.filter.isEmpty { summary.append("filter " + q.filter.joined(separator: ", ")) }
        if !q.search.isEmpty { summary.append("search " + q.search.joined(separator: ", ")) }
        if !q.sort.isEmpty { summary.append("sort " + q.sort.joined(separator: ", ")) }
        if let p = q.predicate { summary.append("predicate `\(p)`") }
        out.blank()
        out.line("/// The declared query `\(SwiftNames.comment(q.name ?? q.label))`" + (summary.isEmpty ? "." : ": " + SwiftNames.comment(summary.joined(separator: "; ")) + "."))
        var parameters: [String] = []
        var parts: [String] = []
        if q.predicate == nil {
            for f in q.filter {
                guard let r = resolve(f) else { continue }
                parameters.append("\(SwiftNames.spelled(r.swift)): Match<\(r.value)>")
                parts.append("Key.\(SwiftNames.spelled(r.swift)).matching(\(SwiftNames.spelled(r.swift)))")
            }
            for f in q.search {
                guard let r = resolve(f) else { continue }
                parameters.append("\(SwiftNames.spelled(r.swift)): String")
                parts.append("Key.\(SwiftNames.spelled(r.swift)).containsTokens(\(SwiftNames.spelled(r.swift)))")
            }
            if parts.isEmpty { parts.append(".all") }
        }
        let sorts = q.sort.compactMap { resolve($0) }.map { ".ascending(Key.\(SwiftNames.spelled($0.swift)))" }
        parameters.append("sortedBy: [Sort<\(me)>] = [\(sorts.joined(separator: ", "))]")
        out.function("\(access)static func \(SwiftNames.spelled(name))", parameters, "CKQuery")
        out.indent {
            if let p = q.predicate {
                out.call("let predicate = Predicate<\(me)>", ["format: \(SwiftNames.predicateFormat(p))", "arguments: []"])
                out.line("return query(predicate, sortedBy: sortedBy)")
                return
            }
            let call = "query(\(parts.joined(separator: " && ")), sortedBy: sortedBy)"
            if out.fits(call) {
                out.line(call)
            } else {
                out.line("let predicate: Predicate<\(me)> =")
                for (i, p) in parts.enumerated() { out.line("  " + (i == 0 ? "" : "&& ") + p) }
                out.line("return query(predicate, sortedBy: sortedBy)")
            }
        }
        out.line("}")
    }
}

/// Text with swift-format's default indentation (two spaces) and line length (100), appended
/// in place into one buffer reserved for the whole file: a line costs its own bytes, with no
/// intermediate strings for the indentation or the newline.
final class SwiftText {
    private(set) var text = ""
    private var depth = 0
    private var indentation = ""
    static let lineLength = 100

    init(capacity: Int = 0) { text.reserveCapacity(capacity) }

    func line(_ s: String) {
        text.append(indentation)
        text.append(s)
        text.append("\n")
    }

    /// Text that is already whole lines (a header), written as it is.
    func raw(_ s: String) { text.append(s) }

    func blank() { text.append("\n") }

    func indent(_ body: () -> Void) {
        depth += 1
        indentation.append("  ")
        body()
        depth -= 1
        indentation.removeLast(2)
    }

    /// True when `s` fits on a line at the current depth.
    func fits(_ s: String, deeper: Int = 0) -> Bool { (depth + deeper) * 2 + s.count <= Self.lineLength }

    /// `head(parameters) -> result {` on one line when it fits, else one parameter a line.
    func function(_ head: String, _ parameters: [String], _ result: String) {
        let one = head + "(" + parameters.joined(separator: ", ") + ") -> " + result + " {"
        if fits(one) { return line(one) }
        line(head + "(")
        for (i, p) in parameters.enumerated() { line("  " + p + (i == parameters.count - 1 ? "" : ",")) }
        line(") -> " + result + " {")
    }

    /// `prefix(arguments)suffix` on one line when it fits; else the arguments on the next line,
    /// or one a line, as swift-format breaks a call.
    func call(_ prefix: String, _ arguments: [String], _ suffix: String = "") {
        let joined = arguments.joined(separator: ", ")
        if fits(prefix + "(" + joined + ")" + suffix) { return line(prefix + "(" + joined + ")" + suffix) }
        line(prefix + "(")
        if fits(joined + ")" + suffix, deeper: 1) { return line("  " + joined + ")" + suffix) }
        for (i, a) in arguments.enumerated() { line("  " + a + (i == arguments.count - 1 ? ")" + suffix : ",")) }
    }
}
