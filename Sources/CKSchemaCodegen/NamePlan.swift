import CKSchemaDiagnostics
import CKSchemaModel

/// Every Swift name the generated code declares, decided before any text is written, with a
/// CK951 error for two names of one scope that map to one identifier.
struct NamePlan {
    /// One record type's names.
    struct TypeNames {
        var swiftName: String
        /// Per custom field, in field order.
        var fields: [String]
    }

    var namespace: String
    var types: [TypeNames] = []
    /// Zone name -> Swift type name, for the declared zones.
    var zones: [String: String] = [:]
    var diagnostics: [Diagnostic] = []

    /// Members every record type declares, which a field's name must not take.
    static let recordMembers: Set<String> = [
        "record", "recordType", "databaseScope", "Key", "Field", "query", "desiredKeys",
        "recordName", "createdAt", "createdBy", "modifiedAt", "modifiedBy", "etag",
        // The shared accessors every property calls (SwiftSupportFile).
        "fieldValue", "setFieldValue", "encryptedValue", "setEncryptedValue", "newRecord",
        // What `Key` declares for `Keys` besides the fields' keys (a key is named like its field).
        "Root", "RecordNameIndex", "CreatedAtIndex", "CreatedByIndex", "ModifiedAtIndex", "ModifiedByIndex", "EtagIndex",
    ]

    /// The names a declared query's function must not take.
    static let queryReserved = recordMembers.union(SwiftSupportFile.declaredNames)

    /// The types the generated code names without a module: a record type or field named so
    /// would shadow them inside the namespace.
    static let sdkTypes: Set<String> = [
        "String", "Int64", "Int", "Double", "Bool", "Date", "Data", "URL", "NSNumber", "NSObject", "Error", "Equatable",
        "Sendable", "Array", "Optional", "Any", "CLLocation", "CKAsset", "CKRecord", "CKQuery", "CKRecordZone", "CKDatabase",
        "CKSubscription", "CKQuerySubscription", "CKRecordZoneSubscription", "CKDatabaseSubscription", "CKServerChangeToken",
        "CKFetchRecordZoneChangesOperation", "NSPredicate", "NSSortDescriptor", "CKCurrentUserDefaultName",
        "CloudKit", "CoreLocation", "Foundation", "Swift",
    ]

    init(schema: Schema, namespace: String) {
        self.namespace = namespace
        let typeReserved = SwiftSupportFile.declaredNames.union([namespace]).union(Self.sdkTypes)
        // Every field name but the type's own Swift name, built once (not once a field).
        let fieldReserved = Self.recordMembers.union([namespace]).union(Self.sdkTypes).union(SwiftSupportFile.declaredNames)
        var seenTypes: [String: String] = [:]
        // A file is named after its type, and macOS's file system ignores case: `Trip.swift` and
        // `trip.swift` (or the shared file) would be one file there.
        var seenFiles: [String: String] = [namespace.lowercased(): namespace]
        for type in schema.recordTypes {
            let swift = SwiftNames.identifier(type.name, reserved: typeReserved)
            let before = diagnostics.count
            check(swift, type.name, in: &seenTypes, what: "record type", scope: "namespace '\(namespace)'", at: type.origin)
            if diagnostics.count == before {
                check(swift.lowercased(), type.name, in: &seenFiles, what: "record type",
                      scope: "file names on a case-insensitive file system ('\(swift).swift')", at: type.origin)
            }
            var seenFields: [String: String] = [:]
            var fields: [String] = []
            fields.reserveCapacity(type.fields.count)
            seenFields.reserveCapacity(type.fields.count)
            for field in type.fields {
                let name = SwiftNames.identifier(field.name, reserved: fieldReserved, also: swift)
                check(name, field.name, in: &seenFields, what: "field", scope: "record type '\(type.name)'", at: field.origin)
                fields.append(name)
            }
            types.append(TypeNames(swiftName: swift, fields: fields))
            if let zone = type.zone, zone != Zone.defaultZoneName, schema.zone(named: zone) == nil {
                diagnostics.append(Diagnostic(
                    rule: CodegenRules.undeclaredZone,
                    "record type '\(ControlCharacters.escaped(type.name))' is in zone '\(ControlCharacters.escaped(zone))', which zones: does not declare, so no Swift type can stand for it",
                    at: type.origin.location, fix: "declare the zone under zones: with its database and capabilities"))
            }
        }
        var seenZones: [String: String] = [:]
        for zone in schema.zones where zone.name != Zone.defaultZoneName {
            let swift = SwiftNames.identifier(zone.name, reserved: Self.sdkTypes.union(["Default", "Zone"]))
            check(swift, zone.name, in: &seenZones, what: "zone", scope: "'\(namespace).Zones'", at: zone.origin)
            zones[zone.name] = swift
        }
        var seenSubscriptions: [String: String] = [:]
        for s in schema.subscriptions {
            check(SwiftNames.camelCased(s.id), s.id, in: &seenSubscriptions, what: "subscription", scope: "'\(namespace).Subscriptions'", at: s.origin)
        }
    }

    /// Records `swift` for `name`, or a CK951 error when another name of the scope has it.
    mutating func check(_ swift: String, _ name: String, in seen: inout [String: String], what: String, scope: String, at origin: Origin) {
        if let other = seen[swift] {
            diagnostics.append(Diagnostic(
                rule: CodegenRules.nameCollision,
                "\(what) '\(ControlCharacters.escaped(name))' and \(what) '\(ControlCharacters.escaped(other))' both become '\(swift)' in \(scope), so one would overwrite the other",
                at: origin.location, fix: "rename one of them (docs/codegen.md gives the naming rules), or generate into another --namespace"))
        } else {
            seen[swift] = name
        }
    }

    /// The Swift type of a zone: `Zones.Default` for the default zone, else the zone's.
    func zoneType(_ zone: String?) -> String {
        guard let zone, zone != Zone.defaultZoneName, let swift = zones[zone] else { return "Zones.Default" }
        return "Zones." + swift
    }
}
