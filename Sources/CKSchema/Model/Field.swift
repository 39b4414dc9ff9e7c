/// What CloudKit does to a record when the record a reference points to is deleted.
public enum ReferenceAction: String, Sendable, Hashable, CaseIterable, Codable {
    /// CKRecord.ReferenceAction.none
    case none
    /// CKRecord.ReferenceAction.deleteSelf: deleting the target deletes this record.
    case deleteSelf
}

/// One custom field of a record type.
public struct Field: Sendable, Hashable {
    public var name: String
    public var type: FieldType
    /// Stored in `CKRecord.encryptedValues`; the server cannot read or index it.
    public var isEncrypted: Bool
    public var indexes: IndexSet
    /// Retired: production can never delete a field, so it is kept and flagged where used.
    public var isDeprecated: Bool
    /// For references (and lists of references): the record type pointed to, when known.
    public var referenceTarget: String?
    /// For references: the delete action the app uses, when declared.
    public var referenceAction: ReferenceAction?
    public var description: String?
    public var origin: Origin
    /// CloudKit creates it only on demand (a Core Data `_ckAsset` companion, `CD_moveReceipt`):
    /// its absence on either side of a diff is not a change.
    public var mayBeAbsent = false

    public init(
        name: String, type: FieldType, isEncrypted: Bool = false, indexes: IndexSet = [],
        isDeprecated: Bool = false, referenceTarget: String? = nil, referenceAction: ReferenceAction? = nil,
        description: String? = nil, origin: Origin = .unknown
    ) {
        self.name = name
        self.type = type
        self.isEncrypted = isEncrypted
        self.indexes = indexes
        self.isDeprecated = isDeprecated
        self.referenceTarget = referenceTarget
        self.referenceAction = referenceAction
        self.description = description
        self.origin = origin
    }
}

/// The fields every record has, which a schema lists only to index them.
///
/// Source: CloudKit Schema Language, implicit system fields (`"___recordID" REFERENCE
/// QUERYABLE` is what makes `recordName` queryable).
public enum SystemField: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case createdAt, createdBy, etag, modifiedAt, modifiedBy, recordName

    /// The name the CloudKit Schema Language gives it.
    public var ckdbName: String {
        switch self {
        case .createdAt: "___createTime"
        case .createdBy: "___createdBy"
        case .etag: "___etag"
        case .modifiedAt: "___modTime"
        case .modifiedBy: "___modifiedBy"
        case .recordName: "___recordID"
        }
    }

    /// Its type in the CloudKit Schema Language.
    public var type: PrimitiveType {
        switch self {
        case .createdAt, .modifiedAt: .timestamp
        case .createdBy, .modifiedBy, .recordName: .reference
        case .etag: .string
        }
    }

    public init?(ckdbName: String) {
        guard let f = SystemField.allCases.first(where: { $0.ckdbName == ckdbName }) else { return nil }
        self = f
    }

    public static func < (a: SystemField, b: SystemField) -> Bool { a.ckdbName < b.ckdbName }
}
