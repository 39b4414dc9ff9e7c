/// No field of a record type in the public database can be encrypted.
///
/// Source: CKRecord.encryptedValues ("encryption is available only in the private and
/// shared databases"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedPublicRule: CloudKitFieldLintRule {
    static let cloudKitRule = CloudKitRule.encryptedInPublicDatabase

    static let info = RuleInfo(
        code: "CK107", name: "encrypted-in-public-database",
        summary: "A record type in the public database has an encrypted field.",
        defaultSeverity: .error,
        source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)")
}
