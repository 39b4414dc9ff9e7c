import CKSchemaModel
import CKSchemaYAML

/// The schema change CloudKit's development environment would make from a set of
/// records: new record types and new fields, with the type each was first written with.
public struct SchemaInference: Sendable {
    /// A field CloudKit would add.
    public struct NewField: Sendable, Hashable {
        public var name: String
        /// nil when no value said what it is (only nulls or empty lists).
        public var type: FieldType?
        public var isEncrypted: Bool
    }

    /// Record types that gain fields (or are new), in the order first seen.
    public private(set) var recordTypes: [(name: String, isNew: Bool, fields: [NewField])] = []
    /// Where each record type and each of its fields sits in `recordTypes`: a record with
    /// 100,000 new fields is O(N) to add, not O(N^2).
    private var typeIndex: [String: Int] = [:]
    private var fieldIndex: [String: [String: Int]] = [:]

    /// No change.
    public init() {}

    /// True when the records add nothing to the schema.
    public var isEmpty: Bool { recordTypes.isEmpty }

    enum Outcome { case new, known, conflict(String) }

    mutating func add(_ o: InferredObservation) -> Outcome {
        var ti = typeIndex[o.recordType]
        var createdType = false
        if ti == nil {
            recordTypes.append((o.recordType, o.isNewType, []))
            ti = recordTypes.count - 1
            typeIndex[o.recordType] = ti
            createdType = true
        }
        guard let field = o.field else { return createdType ? .new : .known }
        let t = ti!
        if let fi = fieldIndex[o.recordType]?[field] {
            let existing = recordTypes[t].fields[fi]
            guard let new = o.type else { return .known }
            guard let old = existing.type else { recordTypes[t].fields[fi].type = new; return .known }
            return old == new ? .known : .conflict(old.description)
        }
        fieldIndex[o.recordType, default: [:]][field] = recordTypes[t].fields.count
        recordTypes[t].fields.append(NewField(name: field, type: o.type, isEncrypted: o.isEncrypted))
        return .new
    }

    /// The change as YAML in the schema format (`docs/schema-format.md`), ready to merge
    /// into the development schema.
    public var yaml: String {
        var out = "# The schema change CloudKit's development environment would make from these records.\n"
        if recordTypes.isEmpty { return out + "recordTypes: {}\n" }
        out += "recordTypes:\n"
        for t in recordTypes {
            out += "  \(Self.key(t.name)):\(t.isNew ? "  # new record type" : "")\n"
            if t.fields.isEmpty { out += "    fields: {}\n"; continue }
            out += "    fields:\n"
            for f in t.fields {
                let type = f.type?.description ?? "string"
                let note = f.type == nil ? "  # type unknown: only nulls or empty lists were written" : ""
                if f.isEncrypted {
                    out += "      \(Self.key(f.name)): { type: \(type), encrypted: true }\(note)\n"
                } else {
                    out += "      \(Self.key(f.name)): \(type)\(note)\n"
                }
            }
        }
        return out
    }

    /// A key as the schema emitter writes it: plain, or quoted with every control character
    /// escaped, so the YAML reads back (a raw control character made it unreadable).
    private static func key(_ s: String) -> String { SchemaEmitter.key(s) }
}
