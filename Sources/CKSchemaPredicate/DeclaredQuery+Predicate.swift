import CKSchemaModel

extension DeclaredQuery {
    /// True when the query filters records (a filter, a search, or a predicate other than
    /// TRUEPREDICATE); a query that does not matches all records and needs recordName queryable.
    public var filtersRecords: Bool {
        if !filter.isEmpty || !search.isEmpty { return true }
        guard let predicate else { return false }
        return (try? PredicateParser.parse(predicate).matchesAll) != true
    }
}
