import CKSchemaModel

/// Zone names: ASCII, at most 255 characters, not starting with '_' (reserved for `_defaultZone`).
///
/// Source: CKRecordZone.ID, zoneName ("must be ASCII ... 255 characters or fewer";
/// developer.apple.com/documentation/cloudkit/ckrecordzone/id).
struct InvalidZoneNameRule: LintRule {
    static let info = CloudKitRule.invalidZoneName.info

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for z in schema.zones {
            if let v = CloudKitRules.zoneNameViolation(z.name) { findings.append(LintFinding(v.message, at: z.origin, fix: v.fix)) }
        }
    }
}
