/// `removeIndex: { recordType, field, kind }`. Allowed in production, but every query that
/// filters or sorts on the field breaks, so development warns (CK5xx review).
struct RemoveIndexStep: MigrationStepKind {
    static let key = "removeIndex"
    var index: IndexTarget

    static func parse(_ args: inout StepArguments) -> Self? { IndexTarget.parse(&args).map(Self.init) }

    var recordTypeName: String? { index.recordType }
    var fieldName: String? { index.field }
    var summary: String { index.summary }
    var yaml: String { index.yaml }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        try index.change(&schema, adding: false, c)
    }

    func developmentReview(at location: SourceLocation?) -> Diagnostic? {
        .warning(StoreRules.removeIndexReview.code,
                 "removing the \(index.kind.rawValue) index on \(index.recordType).\(index.field) breaks every query that filters or sorts on it", at: location,
                 fix: "check the app's queries on \(index.recordType) before applying to production")
    }
}

extension MigrationStepKind where Self == RemoveIndexStep {
    static func removeIndex(recordType: String, field: String, kind: IndexKind) -> Self {
        RemoveIndexStep(index: IndexTarget(recordType: recordType, field: field, kind: kind))
    }
}
