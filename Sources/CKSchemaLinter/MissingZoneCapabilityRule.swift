import CKSchemaModel

/// A record type whose code relies on a zone capability (fetching changes, atomic saves)
/// must live in a zone that has it; the default zone has none.
///
/// Source: CKRecordZone.Capabilities (developer.apple.com/documentation/cloudkit/ckrecordzone/capabilities);
/// CKFetchRecordZoneChangesOperation on the default zone fails in production.
struct MissingZoneCapabilityRule: LintRule {
    static let info = RuleInfo(
        code: "CK117", name: "zone-lacks-capability",
        summary: "A record type 'requires' a zone capability (fetchChanges, atomic, sharing) that its zone does not have; the default zone has none.",
        defaultSeverity: .error,
        source: "CKRecordZone.Capabilities (developer.apple.com/documentation/cloudkit/ckrecordzone/capabilities)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for t in schema.recordTypes where !t.requiredCapabilities.isEmpty {
            let zoneName = t.zone ?? Zone.defaultZoneName
            let have: Set<ZoneCapability> = zoneName == Zone.defaultZoneName ? [] : (schema.zone(named: zoneName)?.capabilities ?? t.requiredCapabilities)
            let missing = t.requiredCapabilities.subtracting(have).sorted()
            guard !missing.isEmpty else { continue }
            let list = missing.map(\.rawValue).joined(separator: ", ")
            if zoneName == Zone.defaultZoneName {
                findings.append(LintFinding("record type '\(t.name)' requires \(list), but it is in the default zone, which has no capabilities (fetching its changes fails in production)",
                                            at: t.origin, fix: "put '\(t.name)' in a custom zone with capabilities [\(list)]"))
            } else {
                findings.append(LintFinding("record type '\(t.name)' requires \(list), which its zone '\(zoneName)' does not have",
                                            at: t.origin, fix: "add [\(list)] to the capabilities of zone '\(zoneName)'"))
            }
        }
    }
}
