import CKSchemaDiagnostics
import CKSchemaModel

/// A parsed CloudKit query predicate: the subset of `NSPredicate` format strings that
/// `CKQuery` accepts (see `docs/runtime.md`). One parser serves declared queries
/// (`queries: - predicate:`), subscriptions and `ckschema query`.
///
/// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery), "Predicate Rules
/// for Query Objects".
public struct QueryPredicate: Sendable, Hashable {
    /// The text as written.
    public var text: String
    public var root: QueryPredicateNode
    /// How its keys spelled system fields (`PredicateParser.parse(_:arguments:spelling:)`):
    /// `.cloudKit` for a predicate found in app code.
    package var spelling = DeclaredQuery.Spelling.schema

    public init(text: String, root: QueryPredicateNode) {
        self.text = text
        self.root = root
    }

    /// Every comparison, in source order.
    public var comparisons: [QueryPredicateComparison] {
        var out: [QueryPredicateComparison] = []
        func walk(_ n: QueryPredicateNode) {
            switch n {
            case .all: break
            case .and(let parts): parts.forEach(walk)
            case .not(let inner, _): walk(inner)
            case .comparison(let c): out.append(c)
            }
        }
        walk(root)
        return out
    }

    /// True for `TRUEPREDICATE`: the query matches every record of its type, which CloudKit
    /// serves only when `recordName` is queryable.
    public var matchesAll: Bool { if case .all = root { return true }; return false }

    /// The fields (custom or system, by their schema name) the predicate filters on.
    public var filterFields: [String] {
        var seen = Set<String>()
        return comparisons.compactMap { c -> String? in
            guard let name = c.key.schemaName, seen.insert(name).inserted else { return nil }
            return name
        }
    }

    /// The keys the predicate filters on as it writes them: CloudKit's keys in app code
    /// (`creationDate`, never ckschema's `createdAt`), each once; `self` is left out.
    public var filterKeys: [String] {
        var seen = Set<String>()
        return comparisons.compactMap { c -> String? in
            if case .tokens = c.key { return nil }
            return seen.insert(c.key.spelled).inserted ? c.key.spelled : nil
        }
    }

    /// True when the predicate runs a tokenized search (`self CONTAINS 'text'`).
    public var searchesTokens: Bool { comparisons.contains { $0.op == .tokenMatch } }
}

/// A node of a predicate's tree. CloudKit has no OR, so the tree is ANDs of comparisons,
/// some negated.
public indirect enum QueryPredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE`: every record.
    case all
    case and([QueryPredicateNode])
    /// `NOT`; the column of the `NOT` in the predicate.
    case not(QueryPredicateNode, column: Int)
    case comparison(QueryPredicateComparison)
}

/// What a comparison's left side names.
public enum QueryPredicateKey: Sendable, Hashable {
    /// A custom field.
    case field(String)
    /// A system field, with the spelling used (`creationDate` or `createdAt`).
    case system(SystemField, spelled: String)
    /// `self`: the record's tokens, for `self CONTAINS 'text'`.
    case tokens

    /// The name the schema knows it by (`createdAt` for `creationDate`); nil for `self`.
    public var schemaName: String? {
        switch self {
        case .field(let n): n
        case .system(let s, _): s.rawValue
        case .tokens: nil
        }
    }

    /// The name as written in the predicate.
    public var spelled: String {
        switch self {
        case .field(let n): n
        case .system(_, let s): s
        case .tokens: "self"
        }
    }

    /// The system keys CKQuery predicates use, and ckschema's own names for them.
    ///
    /// Source: CKRecord "System Fields" / CKQuery: `recordID`, `creationDate`,
    /// `creatorUserRecordID`, `modificationDate`, `lastModifiedUserRecordID`; Web Services
    /// and ckschema's YAML say `recordName`, `createdAt`, `createdBy`, `modifiedAt`, `modifiedBy`.
    /// CloudKit's own keys for the system fields, as app code writes them (`NSSortDescriptor(key:)`):
    /// there `createdAt` is no system field but a custom field's name.
    public static let cloudKitKeys: [String: SystemField] = [
        "recordID": .recordName, "creationDate": .createdAt, "modificationDate": .modifiedAt,
        "creatorUserRecordID": .createdBy, "lastModifiedUserRecordID": .modifiedBy,
    ]

    public static let systemKeys: [String: SystemField] = [
        "recordID": .recordName, "recordName": .recordName,
        "creationDate": .createdAt, "createdAt": .createdAt,
        "modificationDate": .modifiedAt, "modifiedAt": .modifiedAt,
        "creatorUserRecordID": .createdBy, "createdBy": .createdBy,
        "lastModifiedUserRecordID": .modifiedBy, "modifiedBy": .modifiedBy,
    ]

    /// The keys that name system fields when names are spelled so: `cloudKitKeys` for app
    /// code (a predicate or a sort key in Swift), `systemKeys` for a declared query.
    package static func keys(spelled spelling: DeclaredQuery.Spelling) -> [String: SystemField] {
        spelling == .cloudKit ? cloudKitKeys : systemKeys
    }
}

/// One comparison of a key with a value.
public struct QueryPredicateComparison: Sendable, Hashable {
    public enum Operator: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case between = "BETWEEN"
        /// `key IN {a, b}`: the key's value is one of the list.
        case `in` = "IN"
        case beginsWith = "BEGINSWITH"
        /// `list CONTAINS v`, `ANY list == v`, `v IN list`: a list field holds the value.
        case listContains = "CONTAINS"
        /// `self CONTAINS 'text'`: tokenized full-text search over searchable fields.
        case tokenMatch = "self CONTAINS"
        /// `distanceToLocation:fromLocation:(key, origin) < meters`
        case withinDistance = "distance <"
        /// `distanceToLocation:fromLocation:(key, origin) > meters`
        case beyondDistance = "distance >"
    }

    public var key: QueryPredicateKey
    public var op: Operator
    public var value: QueryPredicateValue
    /// 1-based columns in the predicate text of the key, the operator and the value.
    public var keyColumn: Int
    public var opColumn: Int
    public var valueColumn: Int

    public init(key: QueryPredicateKey, op: Operator, value: QueryPredicateValue, keyColumn: Int, opColumn: Int, valueColumn: Int) {
        self.key = key
        self.op = op
        self.value = value
        self.keyColumn = keyColumn
        self.opColumn = opColumn
        self.valueColumn = valueColumn
    }
}

/// A constant in a predicate.
public indirect enum QueryPredicateValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    /// A date: milliseconds since 1970 (the store's and Web Services' unit).
    case date(Int64)
    case location(latitude: Double, longitude: Double)
    /// `{a, b}`: the bounds of BETWEEN, the members of IN.
    case list([QueryPredicateValue])
    /// The origin and radius (meters) of a distance comparison.
    case distance(origin: QueryPredicateValue, meters: Double)

    /// What the value is, for messages.
    public var kindName: String {
        switch self {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .date: "a date"
        case .location: "a location"
        case .list: "a list"
        case .distance: "a distance"
        }
    }
}

/// An argument bound to a `%@` or `%K` placeholder, as `NSPredicate(format:_:)` takes them.
public enum QueryPredicateArgument: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    /// Milliseconds since 1970.
    case date(Int64)
    case location(latitude: Double, longitude: Double)
    case list([QueryPredicateArgument])

    var value: QueryPredicateValue {
        switch self {
        case .string(let s): .string(s)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .date(let d): .date(d)
        case .location(let a, let b): .location(latitude: a, longitude: b)
        case .list(let l): .list(l.map(\.value))
        }
    }
}

/// Why a predicate is refused: the rule, the 1-based column inside the predicate, what is
/// wrong and what to do.
public struct QueryPredicateError: Error, Sendable, Hashable {
    public var rule: RuleInfo
    public var column: Int
    public var message: String
    public var fix: String?

    public init(_ rule: RuleInfo, column: Int, _ message: String, fix: String? = nil) {
        self.rule = rule
        self.column = column
        self.message = message
        self.fix = fix
    }

    /// As a diagnostic at `start` (where the predicate's first character is), moved to the column.
    public func diagnostic(at start: SourceLocation?, severity: Severity? = nil, context: String = "") -> Diagnostic {
        var loc = start
        loc?.column += column - 1
        return Diagnostic(code: rule.code, severity: severity ?? rule.defaultSeverity, location: loc, message: context + message, fix: fix)
    }
}
