import CKSchemaModel

/// The codes a Core Data model source emits (CK6xx) and what `docs/rules.md` says of each.
///
/// Sources: Apple, “Creating a Core Data Model for CloudKit” (the model limits),
/// “Reading CloudKit Records for Core Data” (the mapping), and the checks
/// NSPersistentCloudKitContainer runs on a model when it loads a store with CloudKit
/// options (its errors say “CloudKit integration requires ...”).
public enum CoreDataRules {
    package static let creatingModel = "Apple, “Creating a Core Data Model for CloudKit” (developer.apple.com/documentation/coredata/creating-a-core-data-model-for-cloudkit)"
    package static let readingRecords = "Apple, “Reading CloudKit Records for Core Data” (developer.apple.com/documentation/coredata/reading-cloudkit-records-for-core-data)"
    package static let loadValidation = "NSPersistentCloudKitContainer's model validation when a store loads with CloudKit options (“CloudKit integration requires that all attributes be optional, or have a default value set”)"
    static let xcodeFormat = "Xcode's Core Data model format (.xcdatamodeld, .xccurrentversion, contents)"

    // Reading a model: input errors, exit 2.
    public static let xml = RuleInfo(code: "CK601", name: "coredata-xml", summary: "A model's 'contents' is not well-formed XML, is truncated, or holds no <model> element.", defaultSeverity: .error, source: xcodeFormat)
    public static let version = RuleInfo(code: "CK602", name: "coredata-version", summary: "A .xcdatamodeld with no version, a .xccurrentversion naming a version the model does not have, or --model-version naming one it does not have.", defaultSeverity: .error, source: xcodeFormat)
    public static let unknownAttributeType = RuleInfo(code: "CK603", name: "coredata-unknown-attribute-type", summary: "An attributeType the mapping to CloudKit does not know.", defaultSeverity: .error, source: readingRecords)
    public static let missingEntity = RuleInfo(code: "CK604", name: "coredata-missing-entity", summary: "A relationship, parent entity or configuration member names an entity the model does not have, or entities inherit in a cycle.", defaultSeverity: .error, source: xcodeFormat)
    public static let configuration = RuleInfo(code: "CK605", name: "coredata-configuration", summary: "--configuration names a configuration the model does not have, or several configurations are used with CloudKit and none is chosen.", defaultSeverity: .error, source: creatingModel)

    /// The input codes; LintRules.all lists CK610-CK617 and PromotionRules.all CK630-CK633.
    public static let input: [RuleInfo] = [xml, version, unknownAttributeType, missingEntity, configuration]
}
