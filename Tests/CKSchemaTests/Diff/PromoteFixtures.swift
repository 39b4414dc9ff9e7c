import CKSchema

/// Small schemas built in Swift for the diff and promote tests: a production schema,
/// and helpers to derive a development schema from it with one change.
enum PromoteFixtures {
    static func at(_ file: String, _ line: Int) -> Origin { Origin(SourceLocation(file: file, line: line, column: 5)) }

    /// The production side: `Payload` in the private zone `Payloads`, `User`, `Post` in the
    /// public database, one custom role and one declared query.
    static func production(file: String = "prod.yaml") -> Schema {
        let payload = RecordType(
            name: "Payload", zone: "Payloads",
            fields: [
                Field(name: "title", type: FieldType(.string), indexes: [.queryable, .searchable, .sortable], origin: at(file, 10)),
                Field(name: "count", type: FieldType(.int64), origin: at(file, 11)),
                Field(name: "body", type: FieldType(.bytes), isEncrypted: true, origin: at(file, 12)),
                Field(name: "note", type: FieldType(.string), origin: at(file, 13)),
                Field(name: "owner", type: FieldType(.reference), indexes: [.queryable], referenceTarget: "User", referenceAction: ReferenceAction.none, origin: at(file, 14)),
                Field(name: "capturedAt", type: FieldType(.timestamp), indexes: [.queryable, .sortable], origin: at(file, 15)),
            ],
            systemIndexes: [.recordName: [.queryable]],
            grants: [
                Grant(role: "_world", permissions: [.read], origin: at(file, 17)),
                Grant(role: "_creator", permissions: [.read, .write], origin: at(file, 18)),
            ],
            origin: at(file, 8))
        let user = RecordType(name: "User", fields: [Field(name: "name", type: FieldType(.string), origin: at(file, 21))], origin: at(file, 20))
        let post = RecordType(name: "Post", database: .public, fields: [Field(name: "text", type: FieldType(.string), origin: at(file, 24))], origin: at(file, 23))
        return Schema(
            container: "iCloud.com.example.app",
            zones: [Zone(name: "Payloads", database: .private, capabilities: [.fetchChanges, .atomic], origin: at(file, 3))],
            roles: [Role(name: "Editor", origin: at(file, 5))],
            recordTypes: [payload, user, post],
            queries: [DeclaredQuery(recordType: "Payload", filter: ["capturedAt"], sort: ["capturedAt"], name: "recent", origin: at(file, 30))],
            origin: at(file, 1))
    }

    /// The same schema as written in the development file (other file, same content).
    static func development() -> Schema { production(file: "dev.yaml") }

    /// `development()` with one record type changed.
    static func development(_ type: String, _ edit: (inout RecordType) -> Void) -> Schema {
        var s = development()
        let i = s.recordTypes.firstIndex { $0.name == type }!
        edit(&s.recordTypes[i])
        return s
    }

    /// `development()` with one field of `Payload` changed.
    static func developmentField(_ field: String, _ edit: (inout Field) -> Void) -> Schema {
        development("Payload") { t in
            let i = t.fields.firstIndex { $0.name == field }!
            edit(&t.fields[i])
        }
    }
}
