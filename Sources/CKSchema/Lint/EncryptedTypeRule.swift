/// References cannot be encrypted, and assets are encrypted already.
///
/// Source: CKRecord.encryptedValues ("CKAsset and CKRecord.Reference values aren't
/// supported"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedTypeRule: LintRule {
    static let info = CloudKitRule.encryptedTypeNotAllowed.info

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        CloudKitRules.lint(schema, rule: .encryptedTypeNotAllowed, into: &findings)
    }
}
