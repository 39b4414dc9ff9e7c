import CKSchemaModel

/// One difference between two schemas: a record type, field, index, grant, zone,
/// role or declared query that was added, removed or changed.
///
/// A change names what it touches (`recordType`, `field`, `zone`, ...) and, as
/// text, the value before and after. `origin` is where the element is written on
/// the `to` side (on the `from` side for a removal) so that a diagnostic can point
/// at the line; `fromOrigin` is where it was on the `from` side, when it was there.
/// Origins never take part in equality.
public struct SchemaChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of difference this is.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case changeContainer
        case addZone, removeZone, changeZoneDatabase, addZoneCapability, removeZoneCapability
        case addRole, removeRole
        case addRecordType, removeRecordType, changeRecordTypeZone, changeRecordTypeDatabase
        case deprecateRecordType, undeprecateRecordType, changeRecordTypeDescription, changeRequiredCapabilities
        case addField, removeField, changeFieldType, encryptField, decryptField
        case changeReferenceTarget, changeReferenceAction, deprecateField, undeprecateField, changeFieldDescription
        case addIndex, removeIndex
        case addGrant, removeGrant, changeGrant
        case addQuery, removeQuery
        /// In `from`, and not described by a partial `to` (a Core Data model that no longer
        /// has the entity or attribute): it stays in production; nothing is deleted.
        case notDescribedRecordType, notDescribedField
        case addSubscription, removeSubscription, changeSubscription
    }

    public var kind: Kind
    /// The record type it belongs to; nil for container-level changes (zones, roles, container).
    public var recordType: String?
    /// The custom field, or the system field (`recordName`, `createdAt`, ...) when `isSystemField`.
    public var field: String?
    /// True when `field` names a system field (`recordName`, `createdAt`, ...).
    public var isSystemField: Bool
    /// The index kind added or removed (`addIndex`, `removeIndex`).
    public var index: IndexKind?
    public var zone: String?
    /// The role of a role or grant change.
    public var role: String?
    /// The label of a declared query (`DeclaredQuery.label`).
    public var query: String?
    public var capability: ZoneCapability?
    /// The ID of a subscription change.
    public var subscription: String?
    /// The value before, as the diff shows it (a type, a permission list, a zone name).
    public var before: String?
    /// The value after, as the diff shows it.
    public var after: String?
    /// Where the element is written: the `to` side, or the `from` side for a removal.
    public var origin: Origin
    /// Where the element is written on the `from` side, when it exists there.
    public var fromOrigin: Origin

    /// Makes a change; only `kind` is required, the rest depends on the kind.
    public init(
        _ kind: Kind, recordType: String? = nil, field: String? = nil, isSystemField: Bool = false,
        index: IndexKind? = nil, zone: String? = nil, role: String? = nil, query: String? = nil,
        capability: ZoneCapability? = nil, before: String? = nil, after: String? = nil,
        origin: Origin = .unknown, fromOrigin: Origin = .unknown
    ) {
        self.kind = kind
        self.recordType = recordType
        self.field = field
        self.isSystemField = isSystemField
        self.index = index
        self.zone = zone
        self.role = role
        self.query = query
        self.capability = capability
        self.before = before
        self.after = after
        self.origin = origin
        self.fromOrigin = fromOrigin
    }

    /// `Type.field`, the way messages name a field.
    public var fieldPath: String {
        [recordType, field].compactMap { $0 }.joined(separator: ".")
    }

    /// True for a change that adds something.
    public var isAddition: Bool {
        switch kind {
        case .addZone, .addZoneCapability, .addRole, .addRecordType, .addField, .addIndex, .addGrant, .addQuery, .addSubscription: true
        default: false
        }
    }

    /// True for a change that removes something (its `origin` is on the `from` side).
    public var isRemoval: Bool {
        switch kind {
        case .removeZone, .removeZoneCapability, .removeRole, .removeRecordType, .removeField, .removeIndex, .removeGrant, .removeQuery, .removeSubscription: true
        default: false
        }
    }

    /// One line of review text: `+ Payload.title string [queryable, searchable]`,
    /// `- index Payload.capturedAt sortable`, `~ Payload.count type: int64 -> string`.
    public var description: String {
        let b = before ?? "", a = after ?? ""
        switch kind {
        case .changeContainer: return "~ container: \(b) -> \(a)"
        case .addZone: return "+ zone \(zone ?? "") \(a)"
        case .removeZone: return "- zone \(zone ?? "") \(b)"
        case .changeZoneDatabase: return "~ zone \(zone ?? "") database: \(b) -> \(a)"
        case .addZoneCapability: return "+ zone \(zone ?? "") capability \(capability?.rawValue ?? "")"
        case .removeZoneCapability: return "- zone \(zone ?? "") capability \(capability?.rawValue ?? "")"
        case .addRole: return "+ role \(role ?? "")"
        case .removeRole: return "- role \(role ?? "")"
        case .addRecordType: return "+ record type \(recordType ?? "")" + (a.isEmpty ? "" : " \(a)")
        case .removeRecordType: return "- record type \(recordType ?? "")" + (b.isEmpty ? "" : " \(b)")
        case .changeRecordTypeZone: return "~ record type \(recordType ?? "") zone: \(b) -> \(a)"
        case .changeRecordTypeDatabase: return "~ record type \(recordType ?? "") database: \(b) -> \(a)"
        case .deprecateRecordType: return "~ record type \(recordType ?? "") deprecated"
        case .undeprecateRecordType: return "~ record type \(recordType ?? "") no longer deprecated"
        case .changeRequiredCapabilities: return "~ record type \(recordType ?? "") requires: [\(b)] -> [\(a)]"
        case .changeRecordTypeDescription: return "~ record type \(recordType ?? "") description: \(quoted(before)) -> \(quoted(after))"
        case .addField: return "+ \(fieldPath) \(a)"
        case .removeField: return "- \(fieldPath) \(b)"
        case .changeFieldType: return "~ \(fieldPath) type: \(b) -> \(a)"
        case .encryptField: return "~ \(fieldPath) encrypted: no -> yes"
        case .decryptField: return "~ \(fieldPath) encrypted: yes -> no"
        case .changeReferenceTarget: return "~ \(fieldPath) reference target: \(b) -> \(a)"
        case .changeReferenceAction: return "~ \(fieldPath) reference action: \(b) -> \(a)"
        case .deprecateField: return "~ \(fieldPath) deprecated"
        case .undeprecateField: return "~ \(fieldPath) no longer deprecated"
        case .changeFieldDescription: return "~ \(fieldPath) description: \(quoted(before)) -> \(quoted(after))"
        case .addIndex: return "+ index \(fieldPath) \(index?.rawValue ?? "")"
        case .removeIndex: return "- index \(fieldPath) \(index?.rawValue ?? "")"
        case .addGrant: return "+ grant \(recordType ?? "") \(role ?? ""): \(a)"
        case .removeGrant: return "- grant \(recordType ?? "") \(role ?? ""): \(b)"
        case .changeGrant: return "~ grant \(recordType ?? "") \(role ?? ""): \(b) -> \(a)"
        case .addQuery: return "+ query \(query ?? "")"
        case .removeQuery: return "- query \(query ?? "")"
        case .notDescribedRecordType: return "= record type \(recordType ?? "") not described by the model; stays in production"
        case .notDescribedField: return "= \(fieldPath) \(b) not described by the model; stays in production"
        case .addSubscription: return "+ subscription \(subscription ?? "") \(a)"
        case .removeSubscription: return "- subscription \(subscription ?? "") \(b)"
        case .changeSubscription: return "~ subscription \(subscription ?? ""): \(b) -> \(a)"
        }
    }

    private func quoted(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "none" }

    // Origins are not Codable values; in JSON they are `location` / `fromLocation`.
    private enum CodingKeys: String, CodingKey {
        case kind, recordType, field, isSystemField, index, zone, role, query, capability, subscription, before, after
        case location, fromLocation, text
    }

    /// Writes the change as the JSON object of `docs/output.md` (with its `text` line).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(recordType, forKey: .recordType)
        try c.encodeIfPresent(field, forKey: .field)
        if isSystemField { try c.encode(true, forKey: .isSystemField) }
        try c.encodeIfPresent(index, forKey: .index)
        try c.encodeIfPresent(zone, forKey: .zone)
        try c.encodeIfPresent(role, forKey: .role)
        try c.encodeIfPresent(query, forKey: .query)
        try c.encodeIfPresent(capability, forKey: .capability)
        try c.encodeIfPresent(subscription, forKey: .subscription)
        try c.encodeIfPresent(before, forKey: .before)
        try c.encodeIfPresent(after, forKey: .after)
        try c.encodeIfPresent(origin.location, forKey: .location)
        try c.encodeIfPresent(fromOrigin.location, forKey: .fromLocation)
        try c.encode(description, forKey: .text)
    }

    /// Reads a change written by `encode(to:)` (the `text` key is ignored).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try c.decode(Kind.self, forKey: .kind),
            recordType: try c.decodeIfPresent(String.self, forKey: .recordType),
            field: try c.decodeIfPresent(String.self, forKey: .field),
            isSystemField: try c.decodeIfPresent(Bool.self, forKey: .isSystemField) ?? false,
            index: try c.decodeIfPresent(IndexKind.self, forKey: .index),
            zone: try c.decodeIfPresent(String.self, forKey: .zone),
            role: try c.decodeIfPresent(String.self, forKey: .role),
            query: try c.decodeIfPresent(String.self, forKey: .query),
            capability: try c.decodeIfPresent(ZoneCapability.self, forKey: .capability),
            before: try c.decodeIfPresent(String.self, forKey: .before),
            after: try c.decodeIfPresent(String.self, forKey: .after),
            origin: Origin(try c.decodeIfPresent(SourceLocation.self, forKey: .location)),
            fromOrigin: Origin(try c.decodeIfPresent(SourceLocation.self, forKey: .fromLocation))
        )
        subscription = try c.decodeIfPresent(String.self, forKey: .subscription)
    }
}
