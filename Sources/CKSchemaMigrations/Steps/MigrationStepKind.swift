import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// One kind of migration step (`addField`, `backfill`, ...), the whole of it in one file of
/// this folder: how it is read from a migration file, written by `migrate new`, summed up in
/// plans, applied to the schema and, for data steps, to the store's records.
///
/// A new step kind is one new file here: a type that conforms (the compiler asks for each
/// requirement in turn) and one line in `MigrationStep.kinds`, from which the parser, the
/// list of step names and `docs/migrations.md`'s test derive. `docs/migrations.md` specifies
/// every kind.
protocol MigrationStepKind: Sendable, Hashable {
    /// The step's YAML key (`addField`).
    static var key: String { get }
    /// The keys its arguments take: a key not read because another was missing is not
    /// reported as unknown, and a misspelt key is matched against these.
    static var keys: [String] { get }
    /// Reads the step's arguments (a mapping), reporting every problem through `args`;
    /// nil when the step cannot be built.
    static func parse(_ args: inout StepArguments) -> Self?
    /// The step written as a bare scalar (`removeRecordType: Trip`), for kinds that allow it.
    static func parse(scalar: String, _ args: inout StepArguments) -> Self?

    /// The record type the step acts on (nil for zones, roles and subscriptions by ID).
    var recordTypeName: String? { get }
    /// The field the step acts on, when it acts on one.
    var fieldName: String? { get }
    /// What follows the key in plans and dry runs: `Payload.title (string)`.
    var summary: String { get }
    /// What follows `  - key:` in the file `migrate new` writes (a flow mapping, or an
    /// indented block mapping on the next lines), ending with a newline.
    var yaml: String { get }

    /// Applies the step to `schema`, checked against the schema it meets and against what
    /// CloudKit allows; throws at the first problem, located at the step.
    func apply(to schema: inout Schema, _ context: StepContext) throws(InputError)

    /// True for steps that change records rather than the schema.
    var isDataStep: Bool { get }
    /// What a data step changes in the store's records (the store writes the statement); nil
    /// for a schema step. Throws `InputError` for a value that does not fit, `StoreName.Unsafe`
    /// for a name no SQL may hold.
    func dataUpdate(in schema: Schema, at: SourceLocation?) throws -> RecordsFieldUpdate?
    /// In development, an allowed step a person should still look at, as a warning.
    func developmentReview(at: SourceLocation?) -> Diagnostic?
}

extension MigrationStepKind {
    static func parse(scalar: String, _ args: inout StepArguments) -> Self? { nil }
    var fieldName: String? { nil }
    var isDataStep: Bool { false }
    func dataUpdate(in schema: Schema, at: SourceLocation?) throws -> RecordsFieldUpdate? { nil }
    func developmentReview(at: SourceLocation?) -> Diagnostic? { nil }
}

extension MigrationStep {
    /// Every step kind, in the order `docs/migrations.md` lists them. The parser, the list
    /// of step names in diagnostics and `kindNames` derive from it.
    static let kinds: [any MigrationStepKind.Type] = [
        AddZoneStep.self, AddRoleStep.self, AddRecordTypeStep.self, AddFieldStep.self, AddIndexStep.self, RemoveIndexStep.self,
        DeprecateStep.self, SetGrantsStep.self, RemoveFieldStep.self, RemoveRecordTypeStep.self, BackfillStep.self, CopyStep.self,
        AddSubscriptionStep.self, RemoveSubscriptionStep.self,
    ]

    /// Every step kind, as written in a migration file.
    public static let kindNames: [String] = kinds.map { $0.key }
}
