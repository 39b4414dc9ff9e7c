import CKSchemaModel

/// One step of a migration: a schema change or a data change. Each kind is one type in
/// `Steps/` (`MigrationStepKind`); `docs/migrations.md` specifies each.
public struct MigrationStep: Sendable, Hashable {
    /// What the step does: one of `MigrationStep.kinds`.
    let action: any MigrationStepKind
    /// Where the step is written (file, line, column).
    public var location: SourceLocation?

    init(_ action: some MigrationStepKind, location: SourceLocation? = nil) {
        self.action = action
        self.location = location
    }

    public static func == (a: MigrationStep, b: MigrationStep) -> Bool { AnyHashable(a.action) == AnyHashable(b.action) }
    public func hash(into h: inout Hasher) { h.combine(AnyHashable(action)) }

    /// The step's YAML key (`addField`).
    public var kindName: String { type(of: action).key }
    /// The record type the step acts on (nil for zones and roles).
    public var recordTypeName: String? { action.recordTypeName }
    /// The field the step acts on, when it acts on one.
    public var fieldName: String? { action.fieldName }
    /// True for steps that change records rather than the schema.
    public var isDataStep: Bool { action.isDataStep }
    /// One line for plans and dry runs: `addField Payload.title (string)`.
    public var summary: String { kindName + " " + action.summary }
}
