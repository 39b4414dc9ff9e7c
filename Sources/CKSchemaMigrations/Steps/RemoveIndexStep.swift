import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `removeIndex: { recordType, field, kind }`. Allowed in production, but every query that
/// filters or sorts on the field breaks, so development warns (CK541).
struct RemoveIndexStep: IndexStep {
    static let key = "removeIndex"
    static let adds = false
    var index: IndexTarget

    func developmentReview(at location: SourceLocation?) -> Diagnostic? {
        Diagnostic(rule: StoreRules.removeIndexReview,
                 "removing the \(index.kind.rawValue) index on \(index.recordType).\(index.field) breaks every query that filters or sorts on it", at: location,
                 fix: "check the app's queries on \(index.recordType) before applying to production")
    }
}

extension MigrationStepKind where Self == RemoveIndexStep {
    static func removeIndex(recordType: String, field: String, kind: IndexKind) -> Self {
        RemoveIndexStep(index: IndexTarget(recordType: recordType, field: field, kind: kind))
    }
}
