import CKSchemaCoreData
import CKSchemaModel

/// A model with named configurations, none marked "Used with CloudKit", read without
/// `--configuration`: the mapping mirrors every entity (the Default configuration), which is
/// right only when the app's CloudKit store loads Default. Source: “Creating a Core Data
/// Model for CloudKit” (configurations; “Used with CloudKit” in the Data Model inspector) and
/// `NSPersistentStoreDescription.configuration` / `cloudKitContainerOptions`: a real app
/// mirrors its "Cloud" configuration and keeps "Local" off CloudKit through its store
/// descriptions, which the model does not record. A note, never a guess at which one.
struct UnchosenConfigurationRule: LintRule {
    static let info = RuleInfo(code: "CK618", name: "coredata-configuration-unchosen", summary: "The model has configurations and none is marked Used with CloudKit, and no --configuration was given: every entity is mirrored.", defaultSeverity: .note, source: CoreDataRules.creatingModel + "; NSPersistentStoreDescription.configuration")
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        guard let model = schema.coreDataModel, schema.coreDataConfiguration == nil else { return }
        let named = model.configurations.filter { $0.name != "Default" }
        guard let first = named.first, !model.configurations.contains(where: \.usedWithCloudKit) else { return }
        let names = named.map { "'\($0.name)'" }.joined(separator: ", ")
        let plural = named.count == 1 ? "a configuration" : "\(named.count) configurations"
        findings.append(LintFinding(
            "the model has \(plural) (\(names)) and none is marked Used with CloudKit; every entity is mirrored, as if the CloudKit store loaded the Default configuration",
            at: first.origin,
            fix: "pass --configuration NAME (or coreData.configuration in ckschema.yaml) with the configuration the app's CloudKit store description loads, or tick Used with CloudKit on it in Xcode's Data Model inspector"))
    }
}
