import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `records export`: an environment's records as NDJSON in the CloudKit Web Services shape
/// (`recordName`, `recordType`, `zoneID`, `recordChangeTag`, `created`, `modified`,
/// `fields: {name: {value, type}}`), in the order they were first saved.
public enum RecordExporter {
    /// Writes every record of `environment` (of one type, when given) to `sink`, in chunks of
    /// NDJSON lines. Returns the number of records written.
    @discardableResult
    public static func export(from store: Store, environment: Environment, recordType: String? = nil,
                              to sink: (Data) throws -> Void) throws(InputError) -> Int {
        let schema = try store.schema(environment)
        var types: [String: [String: Field]] = [:]
        for t in schema.recordTypes { types[t.name] = Dictionary(t.fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }) }
        return try store.guarded("export records") {
            let rows = try store.exportRows(env: environment, recordType: recordType)
            var out: [UInt8] = []
            out.reserveCapacity(1 << 20)
            var n = 0
            while let row = try rows.next() {
                // A damaged row is a finding about the store, named by its record, never a raw
                // Swift error value; fields that are not an object are not silently dropped.
                let stored: JSONValue
                do { stored = try rows.withFields { try JSONValue.parse($0) } } catch {
                    let why = (error as? JSONValue.ParseError).map { "\($0.message) at byte \($0.offset + 1)" } ?? "\(Swift.type(of: error))"
                    throw Self.damaged(store, row.recordName, row.recordType, "its fields are not JSON (\(why))")
                }
                guard stored.objectValue != nil else {
                    throw Self.damaged(store, row.recordName, row.recordType, "its fields are \(stored.kindName), not an object")
                }
                let record = webServicesRecord(row, stored: stored, fields: types[row.recordType] ?? [:])
                record.write(to: &out)
                out.append(0x0A)
                n += 1
                if out.count >= 1 << 20 {
                    try sink(Data(out))
                    out.removeAll(keepingCapacity: true)
                }
            }
            if !out.isEmpty { try sink(Data(out)) }
            return n
        }
    }

    /// One record in the Web Services shape. With `redactEncrypted`, an encrypted field keeps
    /// its type and loses its value (queries and notifications never print one).
    static func webServicesRecord(_ row: RecordRows.Row, stored: JSONValue, fields fieldTypes: [String: Field], redactEncrypted: Bool = false) -> JSONValue {
        let fields: [(String, JSONValue)] = (stored.objectValue ?? []).map { key, value in
            let field = fieldTypes[key]
            if redactEncrypted, let field, field.isEncrypted {
                return (key, .object([("type", .string("ENCRYPTED_" + FieldValue.webServicesType(field.type)))]))
            }
            return (key, FieldValue.webServices(value, field: field))
        }
        return JSONValue.object([
            ("recordName", .string(row.recordName)),
            ("recordType", .string(row.recordType)),
            ("zoneID", .object([("zoneName", .string(row.zone))])),
            ("recordChangeTag", .string(row.changeTag)),
            ("created", .object([("timestamp", .int(row.createdAt))])),
            ("modified", .object([("timestamp", .int(row.modifiedAt))])),
            ("fields", .object(fields)),
        ])
    }

    private static func damaged(_ store: Store, _ name: String, _ type: String, _ what: String) -> InputError {
        InputError(Diagnostic(rule: StoreRules.notAStore, "the store '\(store.path)' is damaged: record '\(name)' of type '\(type)': \(what)", at: nil,
                          fix: StoreRules.rebuildAdvice(store.path)))
    }
}
