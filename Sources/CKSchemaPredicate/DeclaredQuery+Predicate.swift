import CKSchemaModel

extension DeclaredQuery {
    /// Why production cannot run the query on `type` (its record type): the one answer lint
    /// (CK110, CK113) and `generate swift` (CK953, a query it leaves out) ask, so a query lint
    /// passes is one the generated code has a function for. Empty when production can run it.
    ///
    /// In order: each name of `filter`, `search` and `sort` (in that order, each in its list's
    /// order) that names no field or lacks the index it needs, then a query that matches all
    /// records without a queryable `recordName`, then (with `predicate`) its predicate's problems.
    ///
    /// - Parameter predicate: also check the predicate (`PredicateChecker`, CK700-CK704). Lint
    ///   passes false: it reports a predicate's problems from that same checker itself, located
    ///   inside the predicate.
    ///
    /// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery): fields in the
    /// predicate must be queryable, sort fields sortable, a tokenized search needs searchable
    /// fields; the server's error "Field 'recordName' is not marked queryable" for a query
    /// that matches all records. Which index kinds a field can hold at all is CloudKit's rule
    /// (`CloudKitRules.allowedIndexes(for:)`, `allowedSystemIndexes`; none on an encrypted field).
    public func shortfalls(on type: RecordType, predicate checkPredicate: Bool = true) -> [QueryShortfall] {
        shortfalls(on: type, predicate: checkPredicate) { text, spelling in
            Result { () throws(QueryPredicateError) in try PredicateParser.parse(text, spelling: spelling) }
        }
    }

    /// `shortfalls(on:predicate:)` with the predicate parsed by `parse` (`PredicateParser.parse`
    /// of the text with the spelling, or a cache of it): lint asks for thousands of queries
    /// that share a few predicate texts, and parses each text once.
    package func shortfalls(on type: RecordType, predicate checkPredicate: Bool,
                            parse: (String, Spelling) -> Result<QueryPredicate, QueryPredicateError>) -> [QueryShortfall] {
        var out: [QueryShortfall] = []
        for (use, names) in [(QueryNeed.Use.filter, filter), (.search, search), (.sort, sort)] {
            for (position, name) in names.enumerated() {
                var need = QueryNeed(name: name, use: use, position: position)
                if let f = type.field(named: name) {
                    need.field = f
                } else if let s = spelling == .cloudKit ? QueryPredicateKey.cloudKitKeys[name] : SystemField(rawValue: name) ?? QueryPredicateKey.systemKeys[name] {
                    need.system = s
                } else {
                    out.append(.unknownField(need))
                    continue
                }
                // What the schema declares, and what CloudKit can hold there at all.
                let declared = need.field?.indexes ?? need.system.map { type.indexes(on: $0) } ?? []
                let allowed = need.field.map { $0.isEncrypted ? [] : CloudKitRules.allowedIndexes(for: $0.type) } ?? CloudKitRules.allowedSystemIndexes
                if !declared.contains(need.index) {
                    out.append(.missingIndex(need))
                } else if !allowed.contains(need.index) {
                    out.append(.refusedIndex(need))
                }
            }
        }
        // The predicate is parsed once, and only when something asks for it.
        let lists = !filter.isEmpty || !search.isEmpty
        let parsed = lists && !checkPredicate ? nil : predicate.map { parse($0, spelling) }
        // A query with no filter, no search and no predicate (or TRUEPREDICATE) matches all records.
        let matchesAll = !lists && (parsed.map { (try? $0.get())?.matchesAll == true } ?? true)
        if matchesAll, !type.indexes(on: .recordName).contains(.queryable) { out.append(.matchesAll) }
        if checkPredicate, let parsed {
            switch parsed {
            case .success(let p): out += PredicateChecker.check(p, on: type).map(QueryShortfall.predicate)
            case .failure(let error): out.append(.predicate(error))
            }
        }
        return out
    }

    /// Where the query writes the name `need` is about (unknown where the reader recorded none).
    package func place(of need: QueryNeed) -> Origin {
        let places = switch need.use {
        case .filter: places.filter
        case .search: places.search
        case .sort: places.sort
        }
        return need.position < places.count ? places[need.position] : .unknown
    }
}

/// One reason production cannot run a declared query (`DeclaredQuery.shortfalls(on:)`).
public enum QueryShortfall: Sendable, Hashable {
    /// The name is no field of the record type, custom or system (lint: CK113).
    case unknownField(QueryNeed)
    /// The schema does not give the field the index the query needs (lint: CK110).
    case missingIndex(QueryNeed)
    /// The schema gives the field the index, but CloudKit cannot hold that index there (an
    /// encrypted field, an asset, searchable on a system field or on what is not a string,
    /// sortable on a list), so production has none: lint reports the declaration (CK104, CK105).
    case refusedIndex(QueryNeed)
    /// The query matches all records and `recordName` is not queryable (lint: CK110).
    case matchesAll
    /// The predicate does not parse, or is one CloudKit refuses on this record type (lint:
    /// CK700-CK704, from the same `PredicateChecker`).
    case predicate(QueryPredicateError)

    /// The name of the query's lists it is about; nil for `matchesAll` and a predicate's problem.
    public var need: QueryNeed? {
        switch self {
        case .unknownField(let n), .missingIndex(let n), .refusedIndex(let n): n
        case .matchesAll, .predicate: nil
        }
    }
}

/// One name of a declared query's `filter`, `search` or `sort` list, the field it names and the
/// index it needs there.
public struct QueryNeed: Sendable, Hashable {
    /// Which list the name is in.
    public enum Use: String, Sendable, Hashable {
        case filter, search, sort
    }

    /// The name as the query writes it.
    public var name: String
    public var use: Use
    /// Its place in that list (`filter[position]`).
    public var position: Int
    /// The custom field it names.
    public var field: Field?
    /// The system field it names: `recordName` ..., or CloudKit's own key (`recordID`,
    /// `creationDate`, ...: `QueryPredicateKey.systemKeys`).
    public var system: SystemField?

    public init(name: String, use: Use, position: Int, field: Field? = nil, system: SystemField? = nil) {
        self.name = name
        self.use = use
        self.position = position
        self.field = field
        self.system = system
    }

    /// The index the use needs: queryable to filter, searchable to search, sortable to sort.
    public var index: IndexKind {
        switch use {
        case .filter: .queryable
        case .search: .searchable
        case .sort: .sortable
        }
    }
}
