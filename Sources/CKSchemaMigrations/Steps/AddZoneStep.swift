import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `addZone: { name, database, capabilities }`: a custom zone.
struct AddZoneStep: MigrationStepKind {
    static let key = "addZone"
    static let keys = ["name", "database", "capabilities"]
    var zone: Zone

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let name = args.string("name") else { return nil }
        let db: Database? = args.choice("database", required: false, "database", use: "public, private or shared")
        let caps: Set<ZoneCapability> = args.set("capabilities", "zone capability", use: ZoneCapability.allCases.map(\.rawValue).joined(separator: ", "))
        return Self(zone: Zone(name: name, database: db ?? .private, capabilities: caps, origin: args.origin))
    }

    var recordTypeName: String? { nil }
    var summary: String { "\(zone.name) (\(zone.database.rawValue))" }
    var yaml: String {
        " { name: \(MigrationWriter.quote(zone.name)), database: \(zone.database.rawValue), capabilities: ["
            + zone.capabilities.sorted().map(\.rawValue).joined(separator: ", ") + "] }\n"
    }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        guard schema.zone(named: zone.name) == nil, zone.name != Zone.defaultZoneName else { throw c.fail(StoreRules.badTarget, "zone '\(zone.name)' already exists") }
        // Source: CKRecordZone: "You can create custom zones only in a private database."
        if zone.database != .private {
            throw c.fail(StoreRules.notAllowed, "zone '\(zone.name)' is in the \(zone.database.rawValue) database; custom zones exist only in the private database",
                         fix: "use `database: private`")
        }
        schema.zones.append(zone)
    }
}

extension MigrationStepKind where Self == AddZoneStep {
    static func addZone(_ zone: Zone) -> Self { AddZoneStep(zone: zone) }
}
