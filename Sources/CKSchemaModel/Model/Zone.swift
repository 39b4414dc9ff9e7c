/// CloudKit's databases: a container has one public, one private and one shared database.
public enum Database: String, Sendable, Hashable, CaseIterable, Codable {
    case `public`, `private`, shared
}

/// What a record zone can do (CKRecordZone.Capabilities).
public enum ZoneCapability: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case fetchChanges, atomic, sharing, zoneWideSharing

    public static func < (a: ZoneCapability, b: ZoneCapability) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A record zone the app creates (custom zones live in the private database).
public struct Zone: Sendable, Hashable {
    /// The default zone's name in every database.
    public static let defaultZoneName = "_defaultZone"

    public var name: String
    public var database: Database
    public var capabilities: Set<ZoneCapability>
    public var origin: Origin

    public init(name: String, database: Database = .private, capabilities: Set<ZoneCapability> = [], origin: Origin = .unknown) {
        self.name = name
        self.database = database
        self.capabilities = capabilities
        self.origin = origin
    }
}

/// A custom security role (`CREATE ROLE name` in the CloudKit Schema Language).
public struct Role: Sendable, Hashable {
    public var name: String
    public var origin: Origin
    public init(name: String, origin: Origin = .unknown) { self.name = name; self.origin = origin }

    /// The roles every container has; `CREATE ROLE` adds to them.
    public static let builtIn: Set<String> = ["_world", "_icloud", "_creator"]
}
