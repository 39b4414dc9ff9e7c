/// A whole CloudKit container schema: what one environment (development or production) holds.
public struct Schema: Sendable, Hashable {
    /// The YAML format version (`ckschema: 1`).
    public static let formatVersion = 1

    public var container: String?
    public var zones: [Zone]
    /// Custom roles (`CREATE ROLE`); the built-in roles are implicit.
    public var roles: [Role]
    /// Record types, in source order (cktool's export order survives a round trip).
    public var recordTypes: [RecordType]
    public var queries: [DeclaredQuery]
    public var origin: Origin
    /// The language the schema was written in, so messages and fixes speak it. Never part
    /// of identity: a schema read from YAML equals the same schema read from `.ckdb`.
    public var notation: NotationTag = NotationTag(.yaml)
    /// True when the source describes only part of the container (a Core Data model
    /// describes its CD_ types): what it omits is not described, never removed.
    public var isPartial = false
    /// The Core Data model the schema was mapped from, for the CK6xx lint rules.
    public var coreDataModel: CoreDataModel?
    /// The model configuration chosen (`--configuration`), nil for the default.
    public var coreDataConfiguration: String?
    /// Subscriptions the app creates, by ID in source order (see `Subscription`).
    public var subscriptions: [Subscription] = []
    /// The `ckschema-disable` comments of the files it was read from (not part of its identity).
    public var suppressions = SuppressionList()

    public init(
        container: String? = nil, zones: [Zone] = [], roles: [Role] = [], recordTypes: [RecordType] = [],
        queries: [DeclaredQuery] = [], origin: Origin = .unknown
    ) {
        self.container = container
        self.zones = zones
        self.roles = roles
        self.recordTypes = recordTypes
        self.queries = queries
        self.origin = origin
    }

    public func recordType(named name: String) -> RecordType? { recordTypes.first { $0.name == name } }
    public func zone(named name: String) -> Zone? { zones.first { $0.name == name } }

    /// The database a record type's records live in, from its zone or its own `database`.
    public func database(of type: RecordType) -> Database? {
        if let z = type.zone, z != Zone.defaultZoneName, let zone = zone(named: z) { return zone.database }
        return type.database
    }

    /// Every role a grant may name: the built-in ones and the custom ones.
    public var knownRoles: Set<String> { Role.builtIn.union(roles.map(\.name)) }
}

/// A schema's notation, kept beside it but outside its identity (like `Origin`).
public struct NotationTag: Sendable, Hashable {
    public var value: SchemaNotation
    public init(_ value: SchemaNotation) { self.value = value }
    public static func == (lhs: NotationTag, rhs: NotationTag) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
