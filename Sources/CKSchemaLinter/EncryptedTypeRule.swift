import CKSchemaModel

/// References cannot be encrypted, and assets are encrypted already.
///
/// Source: CKRecord.encryptedValues ("CKAsset and CKRecord.Reference values aren't
/// supported"; developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedTypeRule: CloudKitFieldLintRule {
    static let cloudKitRule = CloudKitRule.encryptedTypeNotAllowed
}
