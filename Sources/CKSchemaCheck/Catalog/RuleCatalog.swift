import CKSchemaCKDB
import CKSchemaCKTool
import CKSchemaCodegen
import CKSchemaConfig
import CKSchemaCoreData
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaLinter
import CKSchemaModel
import CKSchemaRecords
import CKSchemaRuntime
import CKSchemaScan
import CKSchemaStore
import CKSchemaSwift
import CKSchemaYAML

/// Every rule code the tool can emit. Each subsystem contributes its own list; the catalog
/// sits above them all (docs/architecture.md), so that no subsystem depends on another
/// through it. Renderers and the configuration are given what they need of it.
public enum RuleCatalog {
    public static var all: [RuleInfo] {
        InputRules.all + LintRules.all + [SchemaFormatter.notFormatted] + RecordsRules.all + PromotionRules.all
            + CKDBRules.all + StoreRules.all + CoreDataRules.input + SwiftRules.input
            + PullRules.all + RuntimeRules.all + [RecordDeleter.notFound] + SecurityRules.all + ScanRules.all + ShipRules.all + CodegenRules.all
    }

    public static func info(_ code: String) -> RuleInfo? { all.first { $0.code == code } }
}

extension RuleCatalog {
    /// The rule codes `ckschema.yaml` names (`lint:`, `promote:`) that are not codes, each
    /// at its place with a did-you-mean.
    public static func unknownCodes(in configuration: Configuration) -> [Diagnostic] {
        let codes = Set(all.map(\.code))
        return configuration.ruleCodes.filter { !codes.contains($0.code) }.map {
            Diagnostic(rule: InputRules.invalidValue, "'\($0.code)' is not a rule code\(Suggest.phrase(for: $0.code, in: all.map(\.code)))",
                   at: $0.location, fix: "see docs/rules.md for the codes")
        }
    }
}
