/// One step of a migration: a schema change or a data change. `docs/migrations.md` specifies each.
public struct MigrationStep: Sendable, Hashable {
    /// What the step does.
    public enum Action: Sendable, Hashable {
        case addZone(Zone)
        case addRole(String)
        case addRecordType(RecordType)
        case addField(recordType: String, field: Field)
        /// `field` is a custom field or a system field (`createdAt`, `recordName`, ...).
        case addIndex(recordType: String, field: String, kind: IndexKind)
        case removeIndex(recordType: String, field: String, kind: IndexKind)
        /// Retires a record type (`field == nil`) or one of its fields.
        case deprecate(recordType: String, field: String?)
        case setGrants(recordType: String, grants: [Grant])
        /// Development only: production refuses to delete a deployed field.
        case removeField(recordType: String, field: String)
        /// Development only: production refuses to delete a deployed record type.
        case removeRecordType(String)
        /// Sets `field` on existing records of `recordType` that lack it (or on all, with `overwrite`).
        case backfill(recordType: String, field: String, value: BackfillValue, overwrite: Bool)
        /// Copies `from` into `to` on every record that has `from`, converting where lossless.
        case copy(recordType: String, from: String, to: String)
        /// Adds a subscription to the environment's schema (the store then evaluates it).
        case addSubscription(Subscription)
        /// Removes a subscription by ID (CloudKit deletes subscriptions in both environments).
        case removeSubscription(String)
    }

    public var action: Action
    /// Where the step is written (file, line, column).
    public var location: SourceLocation?

    public init(_ action: Action, location: SourceLocation? = nil) {
        self.action = action
        self.location = location
    }

    public static func == (a: MigrationStep, b: MigrationStep) -> Bool { a.action == b.action }
    public func hash(into h: inout Hasher) { h.combine(action) }

    /// The step's YAML key (`addField`).
    public var kindName: String {
        switch action {
        case .addZone: "addZone"
        case .addRole: "addRole"
        case .addRecordType: "addRecordType"
        case .addField: "addField"
        case .addIndex: "addIndex"
        case .removeIndex: "removeIndex"
        case .deprecate: "deprecate"
        case .setGrants: "setGrants"
        case .removeField: "removeField"
        case .removeRecordType: "removeRecordType"
        case .backfill: "backfill"
        case .copy: "copy"
        case .addSubscription: "addSubscription"
        case .removeSubscription: "removeSubscription"
        }
    }

    /// Every step kind, as written in a migration file.
    public static let kindNames = [
        "addZone", "addRole", "addRecordType", "addField", "addIndex", "removeIndex", "deprecate",
        "setGrants", "removeField", "removeRecordType", "backfill", "copy", "addSubscription", "removeSubscription",
    ]

    /// True for steps that change records rather than the schema.
    /// The record type the step acts on (nil for zones and roles).
    public var recordTypeName: String? {
        switch action {
        case .addZone, .addRole, .removeSubscription: nil
        case .addSubscription(let s): s.recordType
        case .addRecordType(let t): t.name
        case .removeRecordType(let t): t
        case .addField(let t, _), .addIndex(let t, _, _), .removeIndex(let t, _, _), .deprecate(let t, _), .setGrants(let t, _),
             .removeField(let t, _), .backfill(let t, _, _, _), .copy(let t, _, _): t
        }
    }

    /// The field the step acts on, when it acts on one.
    public var fieldName: String? {
        switch action {
        case .addField(_, let f): f.name
        case .addIndex(_, let f, _), .removeIndex(_, let f, _), .removeField(_, let f), .backfill(_, let f, _, _): f
        case .deprecate(_, let f): f
        case .copy(_, _, let to): to
        default: nil
        }
    }

    public var isDataStep: Bool {
        switch action {
        case .backfill, .copy: true
        default: false
        }
    }

    /// One line for plans and dry runs: `addField Payload.title (string)`.
    public var summary: String {
        switch action {
        case .addZone(let z): "addZone \(z.name) (\(z.database.rawValue))"
        case .addRole(let r): "addRole \(r)"
        case .addRecordType(let t): "addRecordType \(t.name) (\(t.fields.count) field\(t.fields.count == 1 ? "" : "s"))"
        case .addField(let t, let f): "addField \(t).\(f.name) (\(f.type)\(f.isEncrypted ? ", encrypted" : ""))"
        case .addIndex(let t, let f, let k): "addIndex \(t).\(f) \(k.rawValue)"
        case .removeIndex(let t, let f, let k): "removeIndex \(t).\(f) \(k.rawValue)"
        case .deprecate(let t, let f): "deprecate \(t)\(f.map { ".\($0)" } ?? "")"
        case .setGrants(let t, let g): "setGrants \(t) (\(g.map(\.role).joined(separator: ", ")))"
        case .removeField(let t, let f): "removeField \(t).\(f)"
        case .removeRecordType(let t): "removeRecordType \(t)"
        case .backfill(let t, let f, let v, let o): "backfill \(t).\(f) = \(v)\(o ? " (overwrite)" : "")"
        case .copy(let t, let a, let b): "copy \(t).\(a) -> \(t).\(b)"
        case .addSubscription(let s): "addSubscription \(s.id) (\(s.kind.rawValue)\(s.recordType.map { " on \($0)" } ?? ""))"
        case .removeSubscription(let id): "removeSubscription \(id)"
        }
    }
}

/// What a backfill writes: a constant, or an expression over the record's other fields.
public enum BackfillValue: Sendable, Hashable, CustomStringConvertible {
    /// A YAML constant, kept as text with its quoting so it can be typed against the field.
    case constant(String, quoted: Bool)
    /// A list constant (for list fields).
    case list([String])
    /// An expression (`docs/migrations.md`, "Expressions").
    case expression(String)

    public var description: String {
        switch self {
        case .constant(let s, let q): q ? "'\(s)'" : s
        case .list(let l): "[" + l.joined(separator: ", ") + "]"
        case .expression(let e): "{\(e)}"
        }
    }
}
