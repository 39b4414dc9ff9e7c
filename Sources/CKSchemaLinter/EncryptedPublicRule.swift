import CKSchemaModel

/// No field of a record type in the public database can be encrypted.
///
/// Source: CKRecord.encryptedValues ("encryption is available only in the private and
/// shared databases"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedPublicRule: CloudKitFieldLintRule {
    static let cloudKitRule = CloudKitRule.encryptedInPublicDatabase
}
