import CKSchemaModel

/// What to do instead of retyping a deployed field (CK303 in `promote`, CK540 in `migrate
/// new`): keep the field, add a new one, and fill it with the data step that really works
/// for the two types, written as the migration line to paste.
///
/// Source: “Integrating a Text-Based Schema into Your Workflow” (a change that would lose
/// data makes the schema invalid: production never retypes a field). Which data step
/// works is ckschema's migration language (docs/migrations.md, "Data steps"): `copy` takes
/// only the lossless conversions of `DataStepSQL.conversionSQL` (same type, `T` into
/// `list<T>`, int64 into string, timestamp and int64 into each other, `number` into its
/// preferred type); a `backfill` expression must have the new field's type, so a double
/// becomes text with `'' || f` and an int64 becomes a double with `f * 1.0`.
/// Tested by `ProductionLoopTests.theRetypeAdviceIsAMigrationLineThatApplies`.
public enum RetypeAdvice {
    /// The name suggested for the new field: `elevation` -> `elevationV2`.
    public static func newName(_ field: String) -> String { field + "V2" }

    /// The data step that fills `to` (the new field, of `new`'s type) from `from` (of
    /// `old`'s type), as one YAML line of a migration; nil when no step converts it.
    public static func dataStep(recordType: String, from: String, old: Field, to: String, new: Field) -> String? {
        if old.isEncrypted && !new.isEncrypted { return nil }
        let a = old.type, b = new.type
        if copies(a, b) { return "- copy: { recordType: \(recordType), from: \(from), to: \(to) }" }
        guard !a.isList, !b.isList, !old.isEncrypted else { return nil }
        let expression: String? = switch (a.primitive, b.primitive) {
        case (.double, .string), (.reference, .string): "'' || \(from)"
        case (.int64, .double): "\(from) * 1.0"
        default: nil
        }
        return expression.map { "- backfill: { recordType: \(recordType), field: \(to), expression: \"\($0)\" }" }
    }

    /// The lossless conversions `copy` takes (as `DataStepSQL.conversionSQL`).
    static func copies(_ a: FieldType, _ b: FieldType) -> Bool {
        if a.primitive == b.primitive, a.isList == b.isList { return a.preferred == b.preferred }
        if !a.isList, b.isList { return a.primitive == b.primitive }
        guard !a.isList, !b.isList else { return false }
        switch (a.primitive, b.primitive) {
        case (.int64, .string), (.timestamp, .int64), (.int64, .timestamp): return true
        case (.number, .double), (.number, .int64): return a.preferred == b.primitive
        default: return false
        }
    }

    /// The whole fix, in YAML's terms: keep `field`, add the new one, fill it with the step
    /// that works (or say that none does), and retire the old one.
    public static func fix(recordType: String, field: String, old: Field, new: Field) -> String {
        let name = newName(field)
        let keep = "keep '\(field)' as \(old.type) and mark it `deprecated: true`, add a \(new.type) field '\(name)' to the schema instead of changing the type; `ckschema migrate new` writes its addField"
        if let step = dataStep(recordType: recordType, from: field, old: old, to: name, new: new) {
            return keep + ", then add the data step that fills it to that migration: `\(step)`"
        }
        return keep + "; no data step converts \(old.isEncrypted ? "encrypted " : "")\(old.type) to \(new.type) without loss, so the app fills '\(name)' from '\(field)'"
    }
}
