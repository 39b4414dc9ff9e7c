extension CloudKitRules {
    /// The findings of one CloudKit rule over a whole schema, for the lint rule of that code.
    static func lint(_ schema: Schema, rule: CloudKitRule, into findings: inout [LintFinding]) {
        let notation = schema.notation.value
        for t in schema.recordTypes {
            let database = schema.database(of: t)
            for f in t.fields where f.isEncrypted || !f.indexes.isEmpty {
                for v in indexAndEncryptionViolations(f, in: t, database: database, notation: notation) where v.rule == rule {
                    findings.append(LintFinding(v.message, at: f.origin, fix: v.fix))
                }
            }
            guard rule == .indexNotAllowed else { continue }
            for s in SystemField.allCases {
                guard let idx = t.systemIndexes[s], let v = systemIndexViolation(s, idx, in: t, notation: notation) else { continue }
                findings.append(LintFinding(v.message, at: t.systemIndexOrigin(s), fix: v.fix))
            }
        }
    }
}
