import CKSchemaModel

/// The default zone has no capabilities: no change fetching, no atomic saves, and it
/// cannot be deleted. Custom zones exist only in the private (and shared) database.
///
/// Source: CKRecordZone.default() and CKRecordZone.Capabilities
/// (developer.apple.com/documentation/cloudkit/ckrecordzone): "the default zone ...
/// doesn't support ... fetchChanges, atomic"; CKFetchRecordZoneChangesOperation works only
/// on custom zones; "You can't delete the default zone"; custom zones are private-database only.
struct DefaultZoneRule: LintRule {
    static let info = RuleInfo(
        code: "CK116", name: "default-zone-capabilities",
        summary: "The default zone is given capabilities, a custom zone is put in the public database, or a record type names a zone the schema does not declare.",
        defaultSeverity: .error,
        source: "CKRecordZone and CKRecordZone.Capabilities (developer.apple.com/documentation/cloudkit/ckrecordzone)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for z in schema.zones {
            if z.name == Zone.defaultZoneName {
                if !z.capabilities.isEmpty {
                    let caps = z.capabilities.sorted().map(\.rawValue).joined(separator: ", ")
                    findings.append(LintFinding("the default zone has no capabilities, but '\(z.name)' declares \(caps); fetching changes, atomic saves and zone deletion need a custom zone",
                                                at: z.origin, fix: "create a custom zone (e.g. 'Main: { database: private, capabilities: [\(caps)] }') and move the record types there"))
                }
            } else if z.database == .public {
                findings.append(LintFinding("zone '\(z.name)' is in the public database, which has only the default zone",
                                            at: z.origin, fix: "put the zone in the private database"))
            }
        }
        let declared = Set(schema.zones.map(\.name))
        for t in schema.recordTypes {
            guard let zone = t.zone, zone != Zone.defaultZoneName else { continue }
            if !declared.contains(zone) {
                findings.append(LintFinding("record type '\(t.name)' is in zone '\(zone)', which is not declared in 'zones'\(Suggest.phrase(for: zone, in: declared))",
                                            at: t.origin, fix: "declare the zone under 'zones:' with its database and capabilities"))
            } else if let db = t.database, let z = schema.zone(named: zone), z.database != db {
                findings.append(LintFinding("record type '\(t.name)' says database \(db.rawValue), but its zone '\(zone)' is in the \(z.database.rawValue) database",
                                            at: t.origin, fix: "remove 'database:' or make it match the zone"))
            }
        }
    }
}
