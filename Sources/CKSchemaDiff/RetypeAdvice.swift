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

/// What to do instead of encrypting a deployed field (CK304 in `promote`, and `migrate new`'s
/// refusal) or decrypting one (CK305): keep the field, add a new one with the wanted
/// encryption, and fill it with the data step that works, written as the lines to paste.
///
/// Sources: CKRecord.encryptedValues — “Only encrypt new fields. CloudKit doesn’t allow
/// encryption on fields that already exist in your app’s schema”
/// (https://developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues);
/// “Integrating a Text-Based Schema into Your Workflow” (`ENCRYPTED` is part of a field's
/// type, which production never changes). Which data step works is ckschema's migration
/// language (docs/migrations.md, "copy"): `copy` takes a plaintext field into an encrypted one
/// of the same type, and refuses an encrypted field into a plaintext one (CK517: it would
/// expose the values), so a decrypted copy is the app's to write. The new encrypted field has
/// no indexes: CloudKit indexes no encrypted field (CK105), nor encrypts a reference (CK106).
/// Tested by `ProductionLoopTests.theEncryptionAdviceIsTheLinesThatApply`.
public enum EncryptionAdvice {
    /// The name suggested for the new field: `body` -> `bodyEncrypted` or `bodyPlain`.
    public static func newName(_ field: String, encrypted: Bool) -> String { field + (encrypted ? "Encrypted" : "Plain") }

    /// The schema line that declares the new field (YAML), as `fieldName: { type: T, encrypted: true }`.
    public static func declaration(_ name: String, type: FieldType, encrypted: Bool) -> String {
        "\(name): { type: \(type)\(encrypted ? ", encrypted: true" : "") }"
    }

    /// The whole fix, in YAML's terms, for `old` (as production has it) becoming `new` (with
    /// the other encryption); nil when no new field can carry it (an encrypted reference).
    public static func fix(recordType: String, field: String, old: Field, new: Field) -> String? {
        let encrypt = new.isEncrypted
        if encrypt, old.type.primitive == .reference { return nil }
        let name = newName(field, encrypted: encrypt)
        let keep = "keep '\(field)' \(encrypt ? "unencrypted" : "encrypted") and mark it `deprecated: true`, add the field `\(declaration(name, type: old.type, encrypted: encrypt))` "
            + "to '\(recordType)' in the schema instead of \(encrypt ? "encrypting" : "decrypting") '\(field)'; `ckschema migrate new` writes its addField"
        if encrypt {
            return keep + ", then add the data step that fills it to that migration: `- copy: { recordType: \(recordType), from: \(field), to: \(name) }`"
        }
        return keep + "; no data step copies an encrypted field into a plaintext one (it would expose the values), so the app reads '\(field)' and writes '\(name)'"
    }
}
