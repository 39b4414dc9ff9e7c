import Foundation
import CKSchemaModel

/// Parses CloudKit's subset of NSPredicate format strings. Linear: one pass of a lexer, a
/// recursive-descent parser whose depth is bounded (`maxDepth`), no backtracking.
///
/// What it accepts and refuses, each with its source, is in `docs/runtime.md`. Source:
/// CKQuery (developer.apple.com/documentation/cloudkit/ckquery), "Predicate Rules for Query
/// Objects": comparison operators `==, =, >=, =>, <=, =<, >, <, !=, <>, BETWEEN`; compound
/// `AND, &&, NOT`; `BEGINSWITH` on strings; `IN` and `CONTAINS` for lists; `self CONTAINS` for
/// tokenized search; the function `distanceToLocation:fromLocation:`; no OR; NOT not around
/// AND, tokenized search, distance functions or BETWEEN.
public struct PredicateParser {
    /// Nesting deeper than this is refused, so that a hostile predicate cannot exhaust the stack.
    public static let maxDepth = 64
    /// Longer predicates are refused (CloudKit's request limits are far below this).
    public static let maxLength = 64 * 1024
    /// At most this many comparisons and list values in one predicate: the store evaluates a
    /// predicate (a query, a subscription on every import) as one SQL expression, and SQLite
    /// refuses an expression deeper than 1,000 (SQLITE_MAX_EXPR_DEPTH) or with more than
    /// 32,766 bound values; 1,200 ANDs passed lint and then broke every import. Refused where
    /// the predicate is read (lint, `migrate apply`, `query`), so that what is stored runs.
    public static let maxTerms = 500

    /// Parses `text`, binding `%@` and `%K` to `arguments` in order.
    public static func parse(_ text: String, arguments: [QueryPredicateArgument] = []) throws(QueryPredicateError) -> QueryPredicate {
        try parse(text, arguments: arguments, spelling: .schema)
    }

    /// Parses `text` whose keys name system fields as `spelling` says: `.cloudKit` for a
    /// predicate found in app code (`NSPredicate(format:)`), where only CloudKit's keys
    /// (`creationDate`, `recordID`, ...) are system fields and `createdAt` is a custom field's
    /// name; `.schema` (a declared query) also takes ckschema's names.
    package static func parse(_ text: String, arguments: [QueryPredicateArgument] = [], spelling: DeclaredQuery.Spelling) throws(QueryPredicateError) -> QueryPredicate {
        guard text.utf8.count <= maxLength else {
            throw QueryPredicateError(PredicateRules.syntax, column: 1, "the predicate is longer than \(maxLength) bytes")
        }
        var p = PredicateParser(tokens: try PredicateLexer.tokens(text), arguments: arguments, spelling: spelling)
        let root = try p.parsePredicate(depth: 0)
        if let t = p.peek, t.kind != .end {
            throw QueryPredicateError(PredicateRules.syntax, column: t.column, "unexpected \(t.describe) after the end of the predicate",
                                 fix: "join conditions with AND")
        }
        if p.nextArgument < arguments.count {
            throw QueryPredicateError(PredicateRules.syntax, column: 1,
                                 "the predicate has \(p.nextArgument) placeholder\(p.nextArgument == 1 ? "" : "s") but \(arguments.count) arguments were given")
        }
        var parsed = QueryPredicate(text: text, root: root)
        parsed.spelling = spelling
        return parsed
    }

    private var tokens: [PredicateToken]
    private var at = 0
    private let arguments: [QueryPredicateArgument]
    private var nextArgument = 0
    private var terms = 0
    private let spelling: DeclaredQuery.Spelling

    private init(tokens: [PredicateToken], arguments: [QueryPredicateArgument], spelling: DeclaredQuery.Spelling) {
        self.tokens = tokens
        self.arguments = arguments
        self.spelling = spelling
    }

    private var peek: PredicateToken? { at < tokens.count ? tokens[at] : nil }
    private var current: PredicateToken { tokens[min(at, tokens.count - 1)] }

    private mutating func advance() -> PredicateToken {
        let t = current
        if at < tokens.count - 1 { at += 1 }
        return t
    }

    private func isWord(_ t: PredicateToken, _ words: String...) -> Bool {
        t.kind == .word && words.contains(t.text.uppercased())
    }

    private static func unsupported(_ column: Int, _ message: String, fix: String? = nil) -> QueryPredicateError {
        QueryPredicateError(PredicateRules.unsupported, column: column, message, fix: fix)
    }

    private static func syntax(_ column: Int, _ message: String, fix: String? = nil) -> QueryPredicateError {
        QueryPredicateError(PredicateRules.syntax, column: column, message, fix: fix)
    }

    /// The one bound on nesting, for every construct that recurses (parentheses, NOT, lists,
    /// function arguments): a hostile predicate cannot exhaust the stack.
    private func checkDepth(_ depth: Int) throws(QueryPredicateError) {
        guard depth < Self.maxDepth else { throw Self.syntax(current.column, "the predicate nests deeper than \(Self.maxDepth) levels") }
    }

    /// Counts one comparison or list value against `maxTerms`.
    private mutating func countTerm() throws(QueryPredicateError) {
        terms += 1
        guard terms <= Self.maxTerms else {
            throw Self.syntax(current.column, "the predicate has more than \(Self.maxTerms) comparisons and list values, the most the store evaluates in one query",
                              fix: "split it into several queries or subscriptions")
        }
    }

    // predicate := and ( (OR | '||') and )*   — OR is refused.
    private mutating func parsePredicate(depth: Int) throws(QueryPredicateError) -> QueryPredicateNode {
        try checkDepth(depth)
        let first = try parseAnd(depth: depth)
        let t = current
        if isWord(t, "OR") || t.kind == .or {
            throw Self.unsupported(t.column, "CloudKit does not support OR in a query predicate",
                                   fix: "run one query per alternative, or use 'key IN {a, b}' for alternatives of one field")
        }
        return first
    }

    private mutating func parseAnd(depth: Int) throws(QueryPredicateError) -> QueryPredicateNode {
        var parts = [try parseUnary(depth: depth)]
        while isWord(current, "AND") || current.kind == .and {
            _ = advance()
            parts.append(try parseUnary(depth: depth))
        }
        if parts.count == 1 { return parts[0] }
        // Flatten nested ANDs: (a AND b) AND c is a AND b AND c.
        var flat: [QueryPredicateNode] = []
        for p in parts { if case .and(let inner) = p { flat += inner } else { flat.append(p) } }
        return .and(flat)
    }

    private mutating func parseUnary(depth: Int) throws(QueryPredicateError) -> QueryPredicateNode {
        try checkDepth(depth)
        let t = current
        if isWord(t, "NOT") || t.kind == .bang {
            _ = advance()
            let inner = try parseUnary(depth: depth + 1)
            try Self.checkNegatable(inner, notColumn: t.column)
            return .not(inner, column: t.column)
        }
        if t.kind == .open {
            _ = advance()
            let inner = try parsePredicate(depth: depth + 1)
            guard current.kind == .close else {
                throw Self.syntax(current.kind == .end ? t.column : current.column,
                                  current.kind == .end ? "unbalanced '(': it is never closed" : "expected ')' but found \(current.describe)",
                                  fix: "close the parenthesis")
            }
            _ = advance()
            return inner
        }
        if isWord(t, "TRUEPREDICATE") { _ = advance(); return .all }
        if isWord(t, "FALSEPREDICATE") {
            throw Self.unsupported(t.column, "CloudKit does not support FALSEPREDICATE", fix: "remove the query; it can match nothing")
        }
        return .comparison(try parseComparison(depth: depth))
    }

    /// CloudKit refuses NOT around AND, a token search, a distance function and BETWEEN.
    private static func checkNegatable(_ n: QueryPredicateNode, notColumn: Int) throws(QueryPredicateError) {
        switch n {
        case .and:
            throw unsupported(notColumn, "CloudKit does not support NOT around an AND compound predicate",
                              fix: "negate each comparison instead (NOT a AND NOT b is not the same query; CloudKit cannot express NOT (a AND b))")
        case .comparison(let c) where c.op == .tokenMatch:
            throw unsupported(notColumn, "CloudKit does not support NOT on a tokenized search (self CONTAINS)")
        case .comparison(let c) where c.op == .withinDistance || c.op == .beyondDistance:
            throw unsupported(notColumn, "CloudKit does not support NOT on distanceToLocation:fromLocation:",
                              fix: "compare the distance with '>' instead of '<'")
        case .comparison(let c) where c.op == .between:
            throw unsupported(notColumn, "CloudKit does not support NOT on BETWEEN", fix: "compare with '<' and '>' instead")
        case .all:
            throw unsupported(notColumn, "CloudKit does not support NOT TRUEPREDICATE")
        default: return
        }
    }

    // MARK: Comparisons

    /// One side of a comparison before it is known whether it is a key or a value.
    private enum Operand {
        case key(QueryPredicateKey, column: Int)
        case value(QueryPredicateValue, column: Int)
        case distance(QueryPredicateKey, keyColumn: Int, origin: QueryPredicateValue, column: Int)

        var column: Int {
            switch self {
            case .key(_, let c), .value(_, let c), .distance(_, _, _, let c): c
            }
        }
    }

    private mutating func parseComparison(depth: Int) throws(QueryPredicateError) -> QueryPredicateComparison {
        try countTerm()
        var quantifier: PredicateToken?
        if isWord(current, "ANY", "SOME", "ALL", "NONE") { quantifier = advance() }
        let lhs = try parseOperand(depth: depth + 1)
        let opToken = current
        let op = try parseOperator()
        let rhs = try parseOperand(depth: depth + 1)
        if let q = quantifier, q.text.uppercased() != "ANY" && q.text.uppercased() != "SOME" {
            throw Self.unsupported(q.column, "CloudKit does not support \(q.text.uppercased()) in a query predicate",
                                   fix: "use 'list CONTAINS value' (or 'ANY list == value') to match a list that holds a value")
        }
        switch (lhs, rhs) {
        case (.distance(let key, let kc, let origin, let c), .value(let v, let vc)):
            guard op == "<" || op == "<=" || op == ">" || op == ">=" else {
                throw Self.unsupported(opToken.column, "CloudKit compares distanceToLocation:fromLocation: only with '<' or '>'")
            }
            guard let meters = Self.number(v) else {
                throw QueryPredicateError(PredicateRules.typeMismatch, column: vc, "a distance is compared with a number of meters, found \(v.kindName)")
            }
            _ = c
            return QueryPredicateComparison(key: key, op: op.hasPrefix("<") ? .withinDistance : .beyondDistance,
                                       value: .distance(origin: origin, meters: meters), keyColumn: kc, opColumn: opToken.column, valueColumn: vc)
        case (.key(let key, let kc), .value(let v, let vc)):
            if quantifier != nil {
                guard op == "==" else {
                    throw Self.unsupported(opToken.column, "CloudKit supports ANY only as 'ANY list == value'", fix: "use 'list CONTAINS value'")
                }
                return QueryPredicateComparison(key: key, op: .listContains, value: v, keyColumn: kc, opColumn: opToken.column, valueColumn: vc)
            }
            if key == .tokens {
                guard op == "CONTAINS" else {
                    throw Self.unsupported(kc, "'self' is used only in a tokenized search: self CONTAINS 'words'")
                }
                return QueryPredicateComparison(key: key, op: .tokenMatch, value: v, keyColumn: kc, opColumn: opToken.column, valueColumn: vc)
            }
            return QueryPredicateComparison(key: key, op: try Self.comparisonOperator(op, column: opToken.column), value: v,
                                       keyColumn: kc, opColumn: opToken.column, valueColumn: vc)
        case (.value(let v, let vc), .key(let key, let kc)):
            // `'red' IN favoriteColors` is CKQuery's list membership.
            if op == "IN", key != .tokens {
                return QueryPredicateComparison(key: key, op: .listContains, value: v, keyColumn: kc, opColumn: opToken.column, valueColumn: vc)
            }
            throw Self.unsupported(vc, "CloudKit needs the key on the left of '\(op)' and the value on the right",
                                   fix: "write '\(key.spelled) \(Self.mirrored(op)) …'")
        case (.key(_, let kc), .key(let other, _)):
            throw Self.unsupported(kc, "CloudKit compares a key only with a constant, not with another key ('\(other.spelled)')",
                                   fix: "compare with a value or a %@ argument")
        case (.value(_, let c), .value), (.value(_, let c), .distance), (.key(_, let c), .distance), (.distance(_, _, _, let c), _):
            throw Self.unsupported(c, "a comparison needs a field on one side and a constant on the other")
        }
    }

    private static func mirrored(_ op: String) -> String {
        switch op {
        case "<": ">"
        case "<=": ">="
        case ">": "<"
        case ">=": "<="
        default: op
        }
    }

    private static func number(_ v: QueryPredicateValue) -> Double? {
        switch v {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    private static func comparisonOperator(_ op: String, column: Int) throws(QueryPredicateError) -> QueryPredicateComparison.Operator {
        switch op {
        case "==": .equal
        case "!=": .notEqual
        case "<": .less
        case "<=": .lessOrEqual
        case ">": .greater
        case ">=": .greaterOrEqual
        case "BETWEEN": .between
        case "IN": .in
        case "BEGINSWITH": .beginsWith
        case "CONTAINS": .listContains
        default:
            throw unsupported(column, "CloudKit does not support the operator \(op)",
                              fix: "use ==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH or CONTAINS")
        }
    }

    /// The operator, normalized (`=` is `==`, `<>` is `!=`, `=<` is `<=`, `=>` is `>=`).
    private mutating func parseOperator() throws(QueryPredicateError) -> String {
        let t = current
        switch t.kind {
        case .op:
            _ = advance()
            switch t.text {
            case "=", "==": return "=="
            case "!=", "<>": return "!="
            case "<": return "<"
            case "<=", "=<": return "<="
            case ">": return ">"
            case ">=", "=>": return ">="
            default: throw Self.syntax(t.column, "unknown operator '\(t.text)'", fix: "use ==, !=, <, <=, > or >=")
            }
        case .word:
            let w = t.text.uppercased()
            switch w {
            case "BETWEEN", "IN", "BEGINSWITH", "CONTAINS":
                _ = advance()
                return w
            case "ENDSWITH", "LIKE", "MATCHES":
                throw Self.unsupported(t.column, "CloudKit does not support the \(w) operator",
                                       fix: "use BEGINSWITH for a prefix, or a searchable field and self CONTAINS for words")
            default:
                throw Self.syntax(t.column, "expected an operator but found '\(t.text)'",
                                  fix: "use ==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH or CONTAINS")
            }
        case .end:
            throw Self.syntax(t.column, "the predicate ends where an operator was expected")
        default:
            throw Self.syntax(t.column, "expected an operator but found \(t.describe)")
        }
    }

    // MARK: Operands

    private mutating func parseOperand(depth: Int) throws(QueryPredicateError) -> Operand {
        try checkDepth(depth)
        let t = current
        switch t.kind {
        case .string:
            _ = advance()
            return .value(.string(t.text), column: t.column)
        case .number:
            _ = advance()
            return .value(try Self.numberValue(t), column: t.column)
        case .placeholderValue:
            _ = advance()
            return .value(try takeArgument(t).value, column: t.column)
        case .placeholderKey:
            _ = advance()
            guard case .string(let name) = try takeArgument(t) else {
                throw Self.syntax(t.column, "%K needs a string argument (a field name)")
            }
            return .key(try Self.key(name, column: t.column, spelling: spelling), column: t.column)
        case .brace:
            return .value(try parseAggregate(depth: depth), column: t.column)
        case .variable:
            throw Self.unsupported(t.column, "CloudKit does not support predicate variables ($\(t.text))", fix: "use a %@ argument")
        case .word:
            let upper = t.text.uppercased()
            if upper == "NIL" || upper == "NULL" {
                throw Self.unsupported(t.column, "CloudKit cannot query for a missing value (nil)",
                                       fix: "store an explicit value (an empty string, 0) and query for it")
            }
            if upper == "TRUE" || upper == "YES" { _ = advance(); return .value(.int(1), column: t.column) }
            if upper == "FALSE" || upper == "NO" { _ = advance(); return .value(.int(0), column: t.column) }
            _ = advance()
            if current.kind == .open {
                return try parseFunction(t, depth: depth)
            }
            if current.kind == .dot {
                throw Self.unsupported(current.column, "CloudKit does not support key paths ('\(t.text).…'); name a field of the record type",
                                       fix: "for a reference, compare the field itself with the target's record name")
            }
            return .key(try Self.key(t.text, column: t.column, spelling: spelling), column: t.column)
        case .end:
            throw Self.syntax(t.column, "the predicate ends where a field or value was expected")
        default:
            throw Self.syntax(t.column, "expected a field or a value but found \(t.describe)")
        }
    }

    private mutating func takeArgument(_ t: PredicateToken) throws(QueryPredicateError) -> QueryPredicateArgument {
        guard nextArgument < arguments.count else {
            throw Self.syntax(t.column, "the placeholder \(t.text) has no argument (\(arguments.count) given)",
                              fix: "pass one argument per %@ and %K, in order")
        }
        defer { nextArgument += 1 }
        return arguments[nextArgument]
    }

    package static func key(_ name: String, column: Int, spelling: DeclaredQuery.Spelling = .schema) throws(QueryPredicateError) -> QueryPredicateKey {
        if name == "self" || name == "SELF" { return .tokens }
        if name == "allTokens" {
            throw unsupported(column, "tokenize(...) IN allTokens is not supported by ckschema's store", fix: "use self CONTAINS 'words'")
        }
        if let s = QueryPredicateKey.keys(spelled: spelling)[name] { return .system(s, spelled: name) }
        return .field(name)
    }

    private static func numberValue(_ t: PredicateToken) throws(QueryPredicateError) -> QueryPredicateValue {
        if let i = Int64(t.text) { return .int(i) }
        if let d = Double(t.text), d.isFinite { return .double(d) }
        throw syntax(t.column, "'\(t.text)' is not a number CloudKit can store (out of range)")
    }

    /// `{a, b, ...}`: constants only.
    private mutating func parseAggregate(depth: Int) throws(QueryPredicateError) -> QueryPredicateValue {
        let open = advance()
        var items: [QueryPredicateValue] = []
        if current.kind == .braceClose { _ = advance(); return .list(items) }
        while true {
            try countTerm()
            let operand = try parseOperand(depth: depth + 1)
            guard case .value(let v, _) = operand else {
                throw Self.unsupported(operand.column, "a list in a predicate holds constants only")
            }
            items.append(v)
            if current.kind == .comma { _ = advance(); continue }
            if current.kind == .braceClose { _ = advance(); return .list(items) }
            throw Self.syntax(current.kind == .end ? open.column : current.column,
                              current.kind == .end ? "unbalanced '{': it is never closed" : "expected ',' or '}' but found \(current.describe)")
        }
    }

    /// `distanceToLocation:fromLocation:(key, origin)`, `CAST(n, "NSDate")`; other functions are refused.
    private mutating func parseFunction(_ name: PredicateToken, depth: Int) throws(QueryPredicateError) -> Operand {
        let open = advance()
        var args: [Operand] = []
        if current.kind != .close {
            while true {
                args.append(try parseOperand(depth: depth + 1))
                if current.kind == .comma { _ = advance(); continue }
                break
            }
        }
        guard current.kind == .close else {
            throw Self.syntax(current.kind == .end ? open.column : current.column,
                              current.kind == .end ? "unbalanced '(': it is never closed" : "expected ',' or ')' but found \(current.describe)")
        }
        _ = advance()
        switch name.text {
        case "distanceToLocation:fromLocation:":
            guard args.count == 2 else {
                throw Self.syntax(name.column, "distanceToLocation:fromLocation: takes 2 arguments (a location field and a location), found \(args.count)")
            }
            guard case .key(let key, let kc) = args[0] else {
                throw Self.unsupported(args[0].column, "the first argument of distanceToLocation:fromLocation: must be a location field")
            }
            guard case .value(let origin, _) = args[1] else {
                throw Self.unsupported(args[1].column, "the second argument of distanceToLocation:fromLocation: must be a location (%@ or {latitude, longitude})")
            }
            var location = origin
            if case .list(let pair) = origin {
                guard pair.count == 2, let lat = Self.number(pair[0]), let lon = Self.number(pair[1]) else {
                    throw QueryPredicateError(PredicateRules.typeMismatch, column: args[1].column, "a location is written {latitude, longitude}")
                }
                location = .location(latitude: lat, longitude: lon)
            }
            guard case .location = location else {
                throw QueryPredicateError(PredicateRules.typeMismatch, column: args[1].column, "distanceToLocation:fromLocation: needs a location, found \(origin.kindName)")
            }
            return .distance(key, keyColumn: kc, origin: location, column: name.column)
        case "CAST", "cast":
            guard args.count == 2 else { throw Self.syntax(name.column, "CAST takes 2 arguments, found \(args.count)") }
            guard case .value(.string(let type), _) = args[1], type == "NSDate" else {
                throw Self.unsupported(args[1].column, "ckschema reads only CAST(seconds, \"NSDate\")")
            }
            // ISO 8601 text (`CAST("2026-05-01T00:00:00Z", "NSDate")`) is read as the record
            // shape reads timestamps (ISOTimestamp); a number is seconds since 2001 (NSDate's).
            if case .value(.string(let text), let vc) = args[0] {
                guard let ms = ISOTimestamp.milliseconds(text) else {
                    throw QueryPredicateError(PredicateRules.typeMismatch, column: vc, "'\(ControlCharacters.escaped(text))' is not an ISO 8601 date",
                                         fix: "write it like 2026-05-01T00:00:00Z, or give seconds since 2001-01-01 as a number")
                }
                return .value(.date(ms), column: name.column)
            }
            guard case .value(let v, let vc) = args[0], let seconds = Self.number(v) else {
                throw QueryPredicateError(PredicateRules.typeMismatch, column: args[0].column, "CAST(…, \"NSDate\") needs seconds since 2001-01-01 as a number, or an ISO 8601 date in quotes")
            }
            // NSDate's reference date is 2001-01-01T00:00:00Z, 978307200 s after 1970.
            let ms = (seconds + 978_307_200) * 1000
            guard ms.isFinite, abs(ms) < 9.0e15 else { throw QueryPredicateError(PredicateRules.typeMismatch, column: vc, "the date is out of range") }
            return .value(.date(Int64(ms)), column: name.column)
        default:
            throw Self.unsupported(name.column, "CloudKit does not support the function '\(name.text)' in a query predicate",
                                   fix: "the only function CloudKit supports is distanceToLocation:fromLocation:")
        }
    }
}
