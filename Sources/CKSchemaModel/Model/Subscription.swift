/// A subscription the app creates, declared in the schema so that lint checks it and the
/// store evaluates it (`subscriptions:` in YAML; the key is the subscription ID).
///
/// Sources: CKSubscription, CKQuerySubscription, CKRecordZoneSubscription,
/// CKDatabaseSubscription and CKSubscription.NotificationInfo (developer.apple.com/documentation/cloudkit).
public struct Subscription: Sendable, Hashable {
    /// CKQuerySubscription, CKRecordZoneSubscription, CKDatabaseSubscription.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case query, zone, database
    }

    /// CKQuerySubscription.Options: firesOnRecordCreation, firesOnRecordUpdate, firesOnRecordDeletion.
    public enum Event: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
        case create, update, delete

        public static func < (a: Event, b: Event) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// The subscription ID (CKSubscription.ID).
    public var id: String
    public var kind: Kind
    public var database: Database
    /// The record type a query subscription watches (optional on zone subscriptions).
    public var recordType: String?
    /// A query subscription's predicate (CloudKit's NSPredicate subset); nil means TRUEPREDICATE.
    public var predicate: String?
    /// Where the predicate's first character is, so that a problem points inside it.
    public var predicateOrigin: Origin
    /// A query subscription's events; empty is refused by lint (CK715).
    public var firesOn: Set<Event>
    /// CKSubscription.NotificationInfo.desiredKeys: the fields a notification carries.
    public var desiredKeys: [String]
    /// The zone a zone subscription watches (or a query subscription is limited to).
    public var zone: String?
    public var origin: Origin
    /// How its predicate names system fields (`DeclaredQuery.Spelling`): a subscription
    /// `scan` found in app code speaks CloudKit's keys only (`creationDate`, not `createdAt`).
    package var spelling = DeclaredQuery.Spelling.schema

    public init(
        id: String, kind: Kind, database: Database = .private, recordType: String? = nil, predicate: String? = nil,
        predicateOrigin: Origin = .unknown, firesOn: Set<Event> = [], desiredKeys: [String] = [], zone: String? = nil,
        origin: Origin = .unknown
    ) {
        self.id = id
        self.kind = kind
        self.database = database
        self.recordType = recordType
        self.predicate = predicate
        self.predicateOrigin = predicateOrigin
        self.firesOn = firesOn
        self.desiredKeys = desiredKeys
        self.zone = zone
        self.origin = origin
    }

    /// The YAML keys each kind of subscription takes.
    public static func keys(for kind: Kind) -> [String] {
        switch kind {
        case .query: ["type", "database", "recordType", "predicate", "firesOn", "desiredKeys", "zone"]
        case .zone: ["type", "database", "zone", "recordType", "desiredKeys"]
        case .database: ["type", "database", "recordType", "desiredKeys"]
        }
    }
}

extension Schema {
    public func subscription(withID id: String) -> Subscription? { subscriptions.first { $0.id == id } }
}
