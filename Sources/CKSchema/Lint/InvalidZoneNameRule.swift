/// Zone names: ASCII, at most 255 characters, not starting with '_' (reserved for `_defaultZone`).
///
/// Source: CKRecordZone.ID, zoneName ("must be ASCII ... 255 characters or fewer";
/// developer.apple.com/documentation/cloudkit/ckrecordzone/id).
struct InvalidZoneNameRule: LintRule {
    static let info = RuleInfo(
        code: "CK103", name: "invalid-zone-name",
        summary: "A zone name is not ASCII, is longer than 255 characters, or starts with '_'.",
        defaultSeverity: .error,
        source: "CKRecordZone.ID zoneName (developer.apple.com/documentation/cloudkit/ckrecordzone/id)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for z in schema.zones {
            if let v = CloudKitRules.zoneNameViolation(z.name) { findings.append(LintFinding(v.message, at: z.origin, fix: v.fix)) }
        }
    }
}
