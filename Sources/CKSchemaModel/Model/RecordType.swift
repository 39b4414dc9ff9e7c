/// A CloudKit record type: its fields, the indexes on its system fields, and its grants.
public struct RecordType: Sendable, Hashable {
    public var name: String
    /// The zone its records live in (nil: the default zone of `database`).
    public var zone: String?
    /// The database its records live in, when the schema says (a zone implies one).
    public var database: Database?
    public var description: String?
    public var isDeprecated: Bool
    /// Zone capabilities the app's code relies on for this type (fetching changes, atomic
    /// saves); the default zone has none.
    public var requiredCapabilities: Set<ZoneCapability>
    /// Custom fields, in source order.
    public var fields: [Field]
    /// Indexes on system fields (`recordName: [queryable]`). Fields with no index are absent.
    public var systemIndexes: [SystemField: IndexKinds]
    /// Grants per role, in source order. Empty means the schema says nothing of grants.
    public var grants: [Grant]
    public var origin: Origin
    /// Where each system field's indexes were written (`"___recordID" REFERENCE QUERYABLE`,
    /// `system: { recordName: ... }`); never part of the type's identity.
    public var systemIndexOrigins: SystemIndexOrigins = SystemIndexOrigins()

    public init(
        name: String, zone: String? = nil, database: Database? = nil, description: String? = nil,
        isDeprecated: Bool = false, requiredCapabilities: Set<ZoneCapability> = [], fields: [Field] = [], systemIndexes: [SystemField: IndexKinds] = [:],
        grants: [Grant] = [], origin: Origin = .unknown
    ) {
        self.name = name
        self.zone = zone
        self.database = database
        self.description = description
        self.isDeprecated = isDeprecated
        self.requiredCapabilities = requiredCapabilities
        self.fields = fields
        self.systemIndexes = systemIndexes
        self.grants = grants
        self.origin = origin
    }

    public func field(named name: String) -> Field? { fields.first { $0.name == name } }

    /// The indexes on a system field (empty when none).
    public func indexes(on system: SystemField) -> IndexKinds { systemIndexes[system] ?? [] }

    /// Where a system field's indexes were written, else the record type's own place.
    public func systemIndexOrigin(_ system: SystemField) -> Origin {
        systemIndexOrigins.table[system] ?? origin
    }

    /// True for a record type CloudKit defines itself (`CloudKitRules.systemRecordTypes`).
    public var isSystemType: Bool { CloudKitRules.systemRecordTypes.contains(name) }
}

/// The places system field indexes were written. Like `Origin`, never part of identity:
/// a schema read from YAML equals the same schema read from `.ckdb`.
public struct SystemIndexOrigins: Sendable, Hashable {
    public var table: [SystemField: Origin] = [:]
    public init() {}
    public static func == (lhs: SystemIndexOrigins, rhs: SystemIndexOrigins) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
