/// A query the app runs, declared so that lint and promote can check its indexes.
public struct DeclaredQuery: Sendable, Hashable {
    public var recordType: String
    /// Fields (custom or system) the predicate compares.
    public var filter: [String]
    /// Fields used with `==`-style full-text tokens (`self CONTAINS`, `tokenize`): need searchable.
    public var search: [String]
    /// Fields the sort descriptors name.
    public var sort: [String]
    /// The database the query runs in (nil: not said).
    public var database: Database?
    /// A name for messages (optional).
    public var name: String?
    public var origin: Origin
    /// The query's NSPredicate format string (`predicate:`), checked by CK700-CK704.
    public var predicate: String?
    /// Where the predicate's first character is, so that a problem points inside it.
    public var predicateOrigin: Origin = .unknown
    /// Where the names are written, so that a finding about one points at it (CK110, CK113).
    package var places = Places()
    /// How the query spells system fields: a declared query may use ckschema's names
    /// (`createdAt`) or CloudKit's keys (`creationDate`); a query `scan` found in app code
    /// speaks CloudKit's keys only, so `createdAt` there is a custom field's name.
    package var spelling = Spelling.schema

    /// How a query's names spell system fields (`DeclaredQuery.spelling`).
    package enum Spelling: Sendable, Hashable {
        /// ckschema's names and CloudKit's keys alike (a declared query).
        case schema
        /// CloudKit's keys only (`recordID`, `creationDate`, ...): app code's `NSSortDescriptor(key:)`.
        case cloudKit
    }

    /// Where a declared query's record type and each name of its lists are written (YAML):
    /// `filter[i]` is the place of `filter`'s i-th name. Empty where the reader did not say
    /// (a query `scan` found in code). Never part of the query's identity, like `Origin`.
    package struct Places: Sendable, Hashable {
        package var recordType: Origin = .unknown
        package var filter: [Origin] = []
        package var search: [Origin] = []
        package var sort: [Origin] = []

        package init() {}

        package static func == (lhs: Places, rhs: Places) -> Bool { true }
        package func hash(into hasher: inout Hasher) {}
    }

    public init(
        recordType: String, filter: [String] = [], search: [String] = [], sort: [String] = [],
        database: Database? = nil, name: String? = nil, origin: Origin = .unknown
    ) {
        self.recordType = recordType
        self.filter = filter
        self.search = search
        self.sort = sort
        self.database = database
        self.name = name
        self.origin = origin
    }

    /// How the query is shown in messages: its name or `Type(filter: a, b; sort: c)`.
    public var label: String {
        if let name { return name }
        var parts: [String] = []
        if !filter.isEmpty { parts.append("filter: " + filter.joined(separator: ", ")) }
        if !search.isEmpty { parts.append("search: " + search.joined(separator: ", ")) }
        if !sort.isEmpty { parts.append("sort: " + sort.joined(separator: ", ")) }
        if let predicate { parts.append("predicate: " + predicate) }
        return "\(recordType)(" + parts.joined(separator: "; ") + ")"
    }
}
