/// An encrypted field can have no index: the server cannot read what it would index.
///
/// Source: CKRecord.encryptedValues ("encrypted fields can't be indexed";
/// developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedIndexedRule: LintRule {
    static let info = CloudKitRule.encryptedIndexed.info

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        CloudKitRules.lint(schema, rule: .encryptedIndexed, into: &findings)
    }
}
