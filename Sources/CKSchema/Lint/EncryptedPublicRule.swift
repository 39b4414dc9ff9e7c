/// No field of a record type in the public database can be encrypted.
///
/// Source: CKRecord.encryptedValues ("encryption is available only in the private and
/// shared databases"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedPublicRule: LintRule {
    static let info = RuleInfo(
        code: "CK107", name: "encrypted-in-public-database",
        summary: "A record type in the public database has an encrypted field.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        CloudKitRules.lint(schema, rule: .encryptedInPublicDatabase, into: &findings)
    }
}
