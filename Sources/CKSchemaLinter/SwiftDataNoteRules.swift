import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaSwift

/// The notes the Swift reader left on a SwiftData model (what it could not resolve, models
/// kept out of CloudKit, enum storage), reported by lint at their place in the `.swift`
/// file. A schema from any other source has none.
enum SwiftDataNotes {
    static let types: [any LintRule.Type] = [SwiftDataNotUnderstoodRule.self, SwiftDataNotSyncedRule.self, SwiftDataEnumStorageRule.self]

    static func findings(_ schema: Schema, code: String) -> [LintFinding] {
        (schema.coreDataModel?.notes ?? []).filter { $0.code == code }.map { LintFinding($0.message, at: $0.origin, fix: $0.fix) }
    }
}

/// CK641: a property the reader assumed bytes for or skipped. Source: SwiftRules.notUnderstood.
struct SwiftDataNotUnderstoodRule: LintRule {
    static let info = SwiftRules.notUnderstood
    func check(_ context: LintContext, into findings: inout [LintFinding]) { findings += SwiftDataNotes.findings(context.schema, code: Self.info.code) }
}

/// CK643: models a `cloudKitDatabase: .none` configuration keeps local. Source: SwiftRules.excluded.
struct SwiftDataNotSyncedRule: LintRule {
    static let info = SwiftRules.excluded
    func check(_ context: LintContext, into findings: inout [LintFinding]) { findings += SwiftDataNotes.findings(context.schema, code: Self.info.code) }
}

/// CK644: a stored enum, mirrored as BYTES from the real exports. Source: SwiftRules.uncertain.
struct SwiftDataEnumStorageRule: LintRule {
    static let info = SwiftRules.uncertain
    func check(_ context: LintContext, into findings: inout [LintFinding]) { findings += SwiftDataNotes.findings(context.schema, code: Self.info.code) }
}

/// CK016: the folders the SwiftData reader's walk did not search (a link to a folder already
/// searched, or out of the folder given), where it left them. The code is the input rules'
/// (`InputRules.folderSkipped`, listed there), so the rule runs (`LintRules.running`) without
/// being one of lint's own (`LintRules.types`). Source: InputRules.folderSkipped.
struct SwiftDataFolderSkippedRule: LintRule {
    static let info = InputRules.folderSkipped
    func check(_ context: LintContext, into findings: inout [LintFinding]) { findings += SwiftDataNotes.findings(context.schema, code: Self.info.code) }
}
