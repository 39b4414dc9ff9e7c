import CKSchemaDiagnostics
import CKSchemaModel

extension CloudKitRules {
    /// The findings of CloudKit's index and encryption rules (CK104-CK107) over a whole
    /// schema, by rule: one pass, in which each field's violations are computed once (not
    /// once for each of the four lint rules that report them).
    static func lintFindings(_ schema: Schema) -> [CloudKitRule: [LintFinding]] {
        var byRule: [CloudKitRule: [LintFinding]] = [:]
        let notation = schema.notation.value
        for t in schema.recordTypes {
            let database = schema.database(of: t)
            // By index: a field is copied only when it is encrypted or indexed.
            for i in t.fields.indices where t.fields[i].isEncrypted || !t.fields[i].indexes.isEmpty {
                let f = t.fields[i]
                for v in indexAndEncryptionViolations(f, in: t, database: database, notation: notation) {
                    // Each points at what it is about: the indexes (CK104, CK105), the type
                    // (CK106); CK107 is about the field in its database, and stays at its name.
                    let at: SourceLocation?, fixIt: FixIt?
                    switch v.rule {
                    case .indexNotAllowed: (at, fixIt) = (f.indexesPlace, f.indexesFixIt(f.indexes.subtracting(v.removedIndexes), notation: notation))
                    case .encryptedIndexed: (at, fixIt) = (f.indexesPlace, nil)
                    case .encryptedTypeNotAllowed: (at, fixIt) = (f.typePlace, nil)
                    default: (at, fixIt) = (f.origin.location, nil)
                    }
                    byRule[v.rule, default: []].append(LintFinding(v.message, at: at, key: f.origin, fix: v.fix, fixIt: fixIt))
                }
            }
            for s in SystemField.allCases {
                guard let idx = t.systemIndexes[s], let v = systemIndexViolation(s, idx, in: t, notation: notation) else { continue }
                byRule[.indexNotAllowed, default: []].append(LintFinding(v.message, at: t.systemIndexOrigin(s), fix: v.fix))
            }
        }
        return byRule
    }
}

/// A lint rule that reports one of CloudKit's index and encryption rules: its findings come
/// from `CloudKitRules.lintFindings`, which `LintContext` computes once for all of them.
protocol CloudKitFieldLintRule: LintRule {
    static var cloudKitRule: CloudKitRule { get }
}

extension CloudKitFieldLintRule {
    /// The rule's own info, kept beside it in Model (`CloudKitRule.info`).
    static var info: RuleInfo { cloudKitRule.info }

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        findings += context.cloudKitFindings[Self.cloudKitRule] ?? []
    }
}
