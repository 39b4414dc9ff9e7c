import CKSchemaModel

/// A deprecated field or record type still used by a declared query.
///
/// Source: production never deletes a deployed field ("Deploying an iCloud Container's
/// Schema", developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema),
/// so retiring one means deprecating it and removing its uses.
struct DeprecatedInQueryRule: LintRule {
    static let info = RuleInfo(
        code: "CK119", name: "deprecated-in-query",
        summary: "A declared query uses a deprecated field or record type.",
        defaultSeverity: .warning,
        source: "Deploying an iCloud Container's Schema (developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
        for q in schema.queries {
            guard let t = types[q.recordType] else { continue }
            // Nothing of a type with nothing deprecated is (a scan's 16,000 queries were each
            // walked name by name, with a set and the lists joined, to find nothing).
            guard t.isDeprecated || t.fields.contains(where: \.isDeprecated) else { continue }
            if t.isDeprecated {
                findings.append(LintFinding("query \(q.label) uses record type '\(t.name)', which is deprecated", at: q.origin,
                                            fix: "stop querying '\(t.name)' or un-deprecate it"))
            }
            var seen = Set<String>()
            for name in q.filter + q.search + q.sort where seen.insert(name).inserted {
                if let f = t.field(named: name), f.isDeprecated {
                    findings.append(LintFinding("query \(q.label) uses field '\(t.name).\(name)', which is deprecated", at: q.origin,
                                                fix: "query the field that replaces it"))
                }
            }
        }
    }
}
