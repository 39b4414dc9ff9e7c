import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// `backfill: { recordType, field, value | expression, overwrite? }`: sets `field` on the
/// existing records of `recordType` that lack it (on all of them with `overwrite: true`).
struct BackfillStep: MigrationStepKind {
    static let key = "backfill"
    static let keys = ["recordType", "field", "value", "expression", "overwrite"]
    var recordType: String
    var field: String
    var value: BackfillValue
    var overwrite: Bool

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let rt = args.string("recordType"), let f = args.string("field") else { return nil }
        let overwrite = args.bool("overwrite")
        guard let value = parseValue(&args) else { return nil }
        return Self(recordType: rt, field: f, value: value, overwrite: overwrite)
    }

    /// Exactly one of `value:` (a constant, or a list for list fields) and `expression:`.
    private static func parseValue(_ args: inout StepArguments) -> BackfillValue? {
        switch (args.value("value"), args.value("expression")) {
        case (let v?, nil):
            if let items = v.sequence { return .list(items.compactMap(\.scalar)) }
            guard case .scalar(let s, let style) = v.kind, !v.isNull else {
                args.fail("a backfill `value` is a constant (found \(v.kindName))", v, fix: "to unset a field, there is no backfill; use `expression:` for computed values")
                return nil
            }
            return .constant(s, quoted: style != .plain)
        case (nil, let e?):
            guard let s = e.scalar, !e.isNull else { args.fail("`expression` is text (found \(e.kindName))", e); return nil }
            return .expression(s)
        default:
            args.fail("`backfill` needs exactly one of `value:` and `expression:`", args.node)
            return nil
        }
    }

    var recordTypeName: String? { recordType }
    var fieldName: String? { field }
    var summary: String { "\(recordType).\(field) = \(value)\(overwrite ? " (overwrite)" : "")" }

    var yaml: String {
        let v: String = switch value {
        case .constant(let s, let q): "value: " + (q ? "'" + s.replacingOccurrences(of: "'", with: "''") + "'" : s)
        case .list(let l): "value: [" + l.map(MigrationWriter.quote).joined(separator: ", ") + "]"
        case .expression(let e): "expression: " + "\"" + e.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return " { recordType: \(MigrationWriter.quote(recordType)), field: \(MigrationWriter.quote(field)), \(v)\(overwrite ? ", overwrite: true" : "") }\n"
    }

    /// The value must fit the field: checked when the step is applied to the schema, so a
    /// bad constant fails before any record is touched.
    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let (t, f) = try c.field(field, of: recordType, in: schema)
        do throws(DataStepError) { _ = try DataStepSQL.backfillValueSQL(value, field: f, recordType: schema.recordTypes[t]) } catch { throw c.fail(error) }
    }

    var isDataStep: Bool { true }

    func dataUpdate(in schema: Schema, at location: SourceLocation?) throws -> RecordsFieldUpdate? {
        guard let t = schema.recordType(named: recordType), let f = t.field(named: field) else { return nil }
        let v: DataStepSQL.ValueSQL
        do throws(DataStepError) { v = try DataStepSQL.backfillValueSQL(value, field: f, recordType: t) } catch {
            throw InputError(.error(error.rule, error.message, at: location, fix: error.fix))
        }
        let path = try StoreName.jsonPath(field)
        var conditions: [String] = []
        if !overwrite { conditions.append("json_extract(fields, \(path)) IS NULL") }
        if let c = v.condition { conditions.append(c) }
        return RecordsFieldUpdate(recordType: recordType, path: path, value: v.expression, valueParameters: v.parameters, conditions: conditions)
    }
}

extension MigrationStepKind where Self == BackfillStep {
    static func backfill(recordType: String, field: String, value: BackfillValue, overwrite: Bool) -> Self {
        BackfillStep(recordType: recordType, field: field, value: value, overwrite: overwrite)
    }
}

/// What a backfill writes: a constant, or an expression over the record's other fields.
public enum BackfillValue: Sendable, Hashable, CustomStringConvertible {
    /// A YAML constant, kept as text with its quoting so it can be typed against the field.
    case constant(String, quoted: Bool)
    /// A list constant (for list fields).
    case list([String])
    /// An expression (`docs/migrations.md`, "Expressions").
    case expression(String)

    public var description: String {
        switch self {
        case .constant(let s, let q): q ? "'\(s)'" : s
        case .list(let l): "[" + l.joined(separator: ", ") + "]"
        case .expression(let e): "{\(e)}"
        }
    }
}
