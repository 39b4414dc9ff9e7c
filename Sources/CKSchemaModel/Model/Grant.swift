/// A permission a role can be granted on a record type.
public enum Permission: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case read, create, write

    public static func < (a: Permission, b: Permission) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The permissions one role holds on one record type (`GRANT READ, WRITE TO role`).
public struct Grant: Sendable, Hashable {
    public var role: String
    public var permissions: Set<Permission>
    public var origin: Origin

    public init(role: String, permissions: Set<Permission>, origin: Origin = .unknown) {
        self.role = role
        self.permissions = permissions
        self.origin = origin
    }

    /// The permissions in canonical order: read, create, write.
    public var sortedPermissions: [Permission] { Permission.allCases.filter(permissions.contains) }
}
