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
    /// Subscriptions the app creates, by ID in source order (see `Subscription`).
    public var subscriptions: [Subscription] = []

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
