import CKSchemaModel
import CKSchemaStore
import CKSchemaDiagnostics

/// A backfill expression compiled to SQL over a record's row, with its result type.
///
/// The language (`docs/migrations.md`, "Expressions"): field names, system fields
/// (`recordName`, `createdAt`, `modifiedAt`), `'text'` and number literals, `+ - * /`,
/// `||` (concatenation), parentheses and the functions `lower`, `upper`, `trim`, `length`,
/// `coalesce`, `abs`, `now`. Literals are quoted into the SQL, never spliced raw.
struct BackfillExpression {
    enum ValueType: String { case string, int64, double, timestamp }

    var sql: String
    var type: ValueType

    struct CompileError: Error { var message: String }

    /// Compiles `text` against the fields of `recordType`.
    static func compile(_ text: String, recordType: RecordType) throws(CompileError) -> BackfillExpression {
        var p = ExprParser(tokens: try tokenize(text), recordType: recordType)
        let e = try p.expression()
        if p.i < p.tokens.count { throw CompileError(message: "unexpected '\(p.tokens[p.i].text)' after the expression") }
        return e
    }

    /// The SQL type a field's value has in an expression, or nil when it cannot be used.
    static func valueType(of field: Field) -> ValueType? {
        guard !field.type.isList else { return nil }
        switch field.type.primitive {
        case .string, .reference: return .string
        case .int64: return .int64
        case .double: return .double
        case .timestamp: return .timestamp
        case .number: return field.type.preferred == .int64 ? .int64 : .double
        default: return nil
        }
    }

    /// Whether a value of type `v` can be stored in `field` as it is (a string names a reference's record).
    static func fits(_ v: ValueType, _ field: Field) -> Bool {
        guard !field.type.isList, let target = valueType(of: field) else { return false }
        return v == target
    }

    struct Token {
        enum Kind { case ident, number, string, op }
        var kind: Kind
        var text: String
    }

    static func tokenize(_ s: String) throws(CompileError) -> [Token] {
        var out: [Token] = []
        let c = Array(s.unicodeScalars)
        var i = 0
        while i < c.count {
            let ch = c[i]
            if ch == " " || ch == "\t" || ch == "\n" { i += 1; continue }
            if ch.properties.isAlphabetic || ch == "_" {
                var j = i
                while j < c.count, c[j].properties.isAlphabetic || c[j] == "_" || ("0"..."9").contains(c[j]) { j += 1 }
                out.append(Token(kind: .ident, text: String(String.UnicodeScalarView(c[i..<j])))); i = j; continue
            }
            if ("0"..."9").contains(ch) {
                var j = i
                while j < c.count, ("0"..."9").contains(c[j]) || c[j] == "." { j += 1 }
                out.append(Token(kind: .number, text: String(String.UnicodeScalarView(c[i..<j])))); i = j; continue
            }
            if ch == "'" {
                var j = i + 1
                var text = ""
                while true {
                    guard j < c.count else { throw CompileError(message: "unterminated text literal") }
                    if c[j] == "'" {
                        if j + 1 < c.count, c[j + 1] == "'" { text.unicodeScalars.append("'"); j += 2; continue }
                        break
                    }
                    text.unicodeScalars.append(c[j]); j += 1
                }
                out.append(Token(kind: .string, text: text)); i = j + 1; continue
            }
            if ch == "|", i + 1 < c.count, c[i + 1] == "|" { out.append(Token(kind: .op, text: "||")); i += 2; continue }
            if "+-*/(),".unicodeScalars.contains(ch) { out.append(Token(kind: .op, text: String(ch))); i += 1; continue }
            throw CompileError(message: "unexpected character '\(ch)' in the expression")
        }
        return out
    }

    private struct ExprParser {
        let tokens: [Token]
        let recordType: RecordType
        var i = 0

        init(tokens: [Token], recordType: RecordType) { self.tokens = tokens; self.recordType = recordType }

        func peek(_ op: String) -> Bool { i < tokens.count && tokens[i].kind == .op && tokens[i].text == op }

        mutating func expect(_ op: String) throws(CompileError) {
            guard peek(op) else { throw CompileError(message: "expected '\(op)'" + (i < tokens.count ? " before '\(tokens[i].text)'" : " at the end")) }
            i += 1
        }

        mutating func expression() throws(CompileError) -> BackfillExpression {
            var left = try term()
            while peek("+") || peek("-") || peek("||") {
                let op = tokens[i].text
                i += 1
                let right = try term()
                if op == "||" {
                    left = BackfillExpression(sql: "(\(left.sql) || \(right.sql))", type: .string)
                } else {
                    left = try arithmetic(op, left, right)
                }
            }
            return left
        }

        mutating func term() throws(CompileError) -> BackfillExpression {
            var left = try factor()
            while peek("*") || peek("/") {
                let op = tokens[i].text
                i += 1
                left = try arithmetic(op, left, try factor())
            }
            return left
        }

        func arithmetic(_ op: String, _ a: BackfillExpression, _ b: BackfillExpression) throws(CompileError) -> BackfillExpression {
            if a.type == .string || b.type == .string {
                throw CompileError(message: "'\(op)' needs numbers; use '||' to join text")
            }
            let type: ValueType
            switch (a.type, b.type) {
            case (.timestamp, .int64) where op == "+" || op == "-": type = .timestamp
            case (.timestamp, .timestamp) where op == "-": type = .int64
            case (.int64, .int64): type = .int64
            case (.double, .int64), (.int64, .double), (.double, .double): type = .double
            default: throw CompileError(message: "cannot apply '\(op)' to \(a.type.rawValue) and \(b.type.rawValue)")
            }
            let lhs = a.type == .double || b.type == .double ? "CAST(\(a.sql) AS REAL)" : a.sql
            return BackfillExpression(sql: "(\(lhs) \(op) \(b.sql))", type: type)
        }

        mutating func factor() throws(CompileError) -> BackfillExpression {
            guard i < tokens.count else { throw CompileError(message: "the expression ends too early") }
            let t = tokens[i]
            i += 1
            switch t.kind {
            case .number:
                if let v = Int64(t.text) { return BackfillExpression(sql: String(v), type: .int64) }
                // A finite double only: 400 digits would be written as `inf`, which SQL reads as a name.
                if let d = Double(t.text), d.isFinite { return BackfillExpression(sql: String(d), type: .double) }
                throw CompileError(message: "'\(t.text)' is not a number")
            case .string:
                return BackfillExpression(sql: Store.sqlLiteral(t.text), type: .string)
            case .op:
                if t.text == "(" {
                    let e = try expression()
                    try expect(")")
                    return e
                }
                if t.text == "-" {
                    let e = try factor()
                    guard e.type == .int64 || e.type == .double else { throw CompileError(message: "'-' needs a number") }
                    return BackfillExpression(sql: "(-\(e.sql))", type: e.type)
                }
                throw CompileError(message: "unexpected '\(t.text)'")
            case .ident:
                if peek("(") { return try call(t.text) }
                return try reference(t.text)
            }
        }

        func reference(_ name: String) throws(CompileError) -> BackfillExpression {
            switch name {
            case "recordName": return BackfillExpression(sql: "record_name", type: .string)
            case "createdAt": return BackfillExpression(sql: "created_at", type: .timestamp)
            case "modifiedAt": return BackfillExpression(sql: "modified_at", type: .timestamp)
            default: break
            }
            guard let f = recordType.field(named: name) else {
                throw CompileError(message: "'\(name)' is not a field of '\(recordType.name)'\(Suggest.phrase(for: name, in: recordType.fields.map(\.name)))")
            }
            guard let type = BackfillExpression.valueType(of: f) else {
                throw CompileError(message: "field '\(name)' is \(f.type); expressions read only string, int64, double, timestamp and reference fields")
            }
            do {
                return BackfillExpression(sql: try StoreIndexer.valueExpression(field: f.name, reference: f.type.primitive == .reference), type: type)
            } catch {
                throw CompileError(message: error.diagnostic.message)
            }
        }

        mutating func call(_ name: String) throws(CompileError) -> BackfillExpression {
            try expect("(")
            var args: [BackfillExpression] = []
            if !peek(")") {
                args.append(try expression())
                while peek(",") { i += 1; args.append(try expression()) }
            }
            try expect(")")
            func one(_ want: ValueType?) throws(CompileError) -> BackfillExpression {
                guard args.count == 1 else { throw CompileError(message: "\(name)() takes one argument") }
                if let want, args[0].type != want { throw CompileError(message: "\(name)() takes \(want.rawValue), not \(args[0].type.rawValue)") }
                return args[0]
            }
            switch name {
            case "lower", "upper", "trim": return BackfillExpression(sql: "\(name)(\(try one(.string).sql))", type: .string)
            case "length": return BackfillExpression(sql: "length(\(try one(.string).sql))", type: .int64)
            case "abs":
                let a = try one(nil)
                guard a.type == .int64 || a.type == .double else { throw CompileError(message: "abs() takes a number") }
                return BackfillExpression(sql: "abs(\(a.sql))", type: a.type)
            case "now":
                guard args.isEmpty else { throw CompileError(message: "now() takes no argument") }
                return BackfillExpression(sql: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)", type: .timestamp)
            case "coalesce":
                guard args.count >= 2 else { throw CompileError(message: "coalesce() takes two or more arguments") }
                guard args.allSatisfy({ $0.type == args[0].type }) else { throw CompileError(message: "the arguments of coalesce() must have one type") }
                return BackfillExpression(sql: "coalesce(" + args.map(\.sql).joined(separator: ", ") + ")", type: args[0].type)
            default:
                throw CompileError(message: "unknown function '\(name)'\(Suggest.phrase(for: name, in: ["lower", "upper", "trim", "length", "abs", "now", "coalesce"]))")
            }
        }
    }
}
