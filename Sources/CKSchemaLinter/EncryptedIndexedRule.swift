import CKSchemaModel

/// An encrypted field can have no index: the server cannot read what it would index.
///
/// Source: CKRecord.encryptedValues ("encrypted fields can't be indexed";
/// developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues).
struct EncryptedIndexedRule: CloudKitFieldLintRule {
    static let cloudKitRule = CloudKitRule.encryptedIndexed
}
