/// References cannot be encrypted, and assets are encrypted already.
///
/// Source: CKRecord.encryptedValues ("CKAsset and CKRecord.Reference values aren't
/// supported"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedTypeRule: CloudKitFieldLintRule {
    static let cloudKitRule = CloudKitRule.encryptedTypeNotAllowed

    static let info = RuleInfo(
        code: "CK106", name: "encrypted-type-not-allowed",
        summary: "A reference or asset field (or a list of them) is marked encrypted.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")
}
