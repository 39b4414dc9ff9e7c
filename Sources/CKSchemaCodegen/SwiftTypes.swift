import CKSchemaModel

/// The Swift spelling of schema facts: value types, index markers, system keys.
enum SwiftTypes {
    /// The Swift type CloudKit uses for a field's values (`[T]` for a list).
    static func value(_ type: FieldType) -> String {
        let element: String = switch type.primitive {
        case .string: "String"
        case .int64: "Int64"
        case .double: "Double"
        case .bytes: "Data"
        case .timestamp: "Date"
        case .location: "CLLocation"
        case .reference: "CKRecord.Reference"
        case .asset: "CKAsset"
        // CKDB's legacy NUMBER: what PREFERRED AS says, else the NSNumber CloudKit stores.
        case .number: type.preferred == .int64 ? "Int64" : type.preferred == .double ? "Double" : "NSNumber"
        }
        return type.isList ? "[\(element)]" : element
    }

    /// The index marker of a custom field (`Indexes.QueryableSortable`): the indexes production
    /// holds, so a kind CloudKit refuses on the field's type (CK104: sortable on a list, searchable
    /// on what is not a string, any on an asset) gives no call, as `DeclaredQuery.shortfalls(on:)`
    /// gives no declared query.
    static func marker(_ field: Field) -> String {
        if field.isEncrypted { return "Indexes.Encrypted" }
        let refused = field.indexes.subtracting(CloudKitRules.allowedIndexes(for: field.type))
        return "Indexes." + combination(field.indexes.subtracting(refused), searchable: true)
    }

    /// The marker of a system field.
    static func systemMarker(_ indexes: IndexKinds) -> String {
        "Indexes.System." + combination(indexes, searchable: false)
    }

    private static func combination(_ indexes: IndexKinds, searchable: Bool) -> String {
        var name = ""
        if indexes.contains(.queryable) { name += "Queryable" }
        if searchable, indexes.contains(.searchable) { name += "Searchable" }
        if indexes.contains(.sortable) { name += "Sortable" }
        return name.isEmpty ? "None" : name
    }

    /// A system field's key name in a query (CKQuery's system keys), its value type and how a
    /// record reads it.
    static func system(_ field: SystemField) -> (key: String, value: String, read: String) {
        switch field {
        case .recordName: ("recordID", "CKRecord.ID", "record.recordID")
        case .createdAt: ("creationDate", "Date", "record.creationDate")
        case .createdBy: ("creatorUserRecordID", "CKRecord.ID", "record.creatorUserRecordID")
        case .modifiedAt: ("modificationDate", "Date", "record.modificationDate")
        case .modifiedBy: ("lastModifiedUserRecordID", "CKRecord.ID", "record.lastModifiedUserRecordID")
        case .etag: ("___etag", "String", "record.recordChangeTag")
        }
    }

    /// The order system keys are written in.
    static let systemOrder: [SystemField] = [.recordName, .createdAt, .createdBy, .modifiedAt, .modifiedBy, .etag]

    /// The YAML words for a field, for its doc comment: `string, queryable, sortable`.
    static func summary(_ field: Field) -> String {
        var words = [field.type.description]
        if field.isEncrypted { words.append("encrypted") }
        words += field.indexes.kinds.map(\.rawValue)
        if let target = field.referenceTarget { words.append("to \(target)") }
        if field.isDeprecated { words.append("deprecated") }
        return words.joined(separator: ", ")
    }
}
