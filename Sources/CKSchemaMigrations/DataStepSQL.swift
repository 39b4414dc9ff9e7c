import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// A data step that cannot run: which rule, what is wrong, what to do.
struct DataStepError: Error {
    var rule: RuleInfo
    var message: String
    var fix: String?
}

/// The SQL expressions of data steps (`backfill`, `copy`) over a record's `fields`; the store
/// writes the UPDATE around them (`RecordsFieldUpdate`).
enum DataStepSQL {
    /// A value expression for `json_set` with the parameters it binds.
    struct ValueSQL {
        var expression: String
        var parameters: [SQLiteValue]
        /// A condition the row must meet for the value to exist (an expression's inputs present).
        var condition: String?
    }

    /// The SQL of a backfill's value, checked against the field's type.
    static func backfillValueSQL(_ value: BackfillValue, field: Field, recordType: RecordType) throws(DataStepError) -> ValueSQL {
        func mismatch(_ m: String) -> DataStepError {
            DataStepError(rule: StoreRules.backfillType, message: "the value does not fit \(recordType.name).\(field.name) (\(field.type)): \(m)",
                          fix: "give a value of type \(field.type)")
        }
        switch value {
        case .constant(let text, let quoted):
            switch FieldValue.storage(fromConstant: text, quoted: quoted, type: field.type) {
            case .success(let v): return ValueSQL(expression: "json(?)", parameters: [.text(v.text)])
            case .failure(let m): throw mismatch(m.message)
            }
        case .list(let items):
            guard field.type.isList else { throw mismatch("a list was given for a single value") }
            var out: [JSONValue] = []
            for item in items {
                switch FieldValue.storage(fromConstant: item, quoted: false, type: FieldType(field.type.primitive, preferred: field.type.preferred)) {
                case .success(let v): out.append(v)
                case .failure(let m): throw mismatch(m.message)
                }
            }
            return ValueSQL(expression: "json(?)", parameters: [.text(JSONValue.array(out).text)])
        case .expression(let text):
            let e: BackfillExpression
            do { e = try BackfillExpression.compile(text, recordType: recordType) } catch {
                throw DataStepError(rule: StoreRules.backfillType, message: "expression '\(text)': \(error.message)", fix: "see docs/migrations.md, \"Expressions\"")
            }
            guard BackfillExpression.fits(e.type, field) else {
                throw mismatch("the expression gives \(e.type.rawValue)")
            }
            var sql = field.type.primitive == .reference ? "json_object('recordName', \(e.sql))" : e.sql
            if e.type == .int64 || e.type == .timestamp {
                // SQLite turns an integer overflow into a REAL without a word (n + 9223372036854775807
                // stored 9.22e18 in an INT64 field), and a REAL stays REAL through what follows. So a
                // REAL result raises SQLite's own "integer overflow" (abs of the least int64), which
                // fails the step and rolls the migration back (Migrator reports it as CK516).
                sql = "(CASE WHEN typeof(\(e.sql)) = 'real' THEN abs(-9223372036854775807 - 1) ELSE \(e.sql) END)"
            }
            return ValueSQL(expression: sql, parameters: [], condition: "(\(e.sql)) IS NOT NULL")
        }
    }

    /// The SQL expression that converts the `from` field's stored value into `to`'s, when lossless.
    static func conversionSQL(from a: Field, to b: Field) throws(DataStepError) -> String {
        let path: String
        do { path = try StoreName.jsonPath(a.name) } catch {
            throw DataStepError(rule: SecurityRules.unsafeStoreName, message: error.diagnostic.message, fix: error.diagnostic.fix)
        }
        let src = "fields -> \(path)"
        if a.isEncrypted && !b.isEncrypted {
            throw DataStepError(rule: StoreRules.lossyCopy, message: "copying encrypted '\(a.name)' into plaintext '\(b.name)' would expose its values",
                                fix: "make '\(b.name)' encrypted too; a plaintext copy is the app's to write, on a device that reads the values decrypted")
        }
        let at = a.type, bt = b.type
        if at.primitive == bt.primitive, at.isList == bt.isList { return "json(\(src))" }
        if !at.isList, bt.isList, at.primitive == bt.primitive { return "json_array(json(\(src)))" }
        if !at.isList, !bt.isList {
            switch (at.primitive, bt.primitive) {
            case (.int64, .string): return "CAST(json_extract(fields, \(path)) AS TEXT)"
            case (.timestamp, .int64), (.int64, .timestamp): return "json(\(src))"
            case (.number, .double) where at.preferred == .double: return "json(\(src))"
            case (.number, .int64) where at.preferred == .int64: return "json(\(src))"
            default: break
            }
        }
        let hint: String = switch (at.primitive, bt.primitive) {
        case (.int64, .double): "an int64 above 2^53 does not fit a double exactly"
        case (.double, .int64): "a double's fraction would be lost"
        case (_, .string): "only int64 converts to string exactly"
        default: "\(at) does not convert to \(bt) without loss"
        }
        throw DataStepError(rule: StoreRules.lossyCopy, message: "copy from '\(a.name)' (\(at)) to '\(b.name)' (\(bt)) is not lossless: \(hint)",
                            fix: "copy into a field of the same type, or of list<\(at)>, or backfill with an explicit expression")
    }
}
