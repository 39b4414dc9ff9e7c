import CKSchema

extension QueryCommand {
    /// query's options: the record type, predicate, sort, zone and limit of one CKQuery.
    struct Options: ParsableOptions {
        static let predicate = Option.text("predicate", help: "NSPredicate format text", valueName: "P", default: "TRUEPREDICATE, every record")
        static let sort = Option.text("sort", help: "a sort descriptor; repeat for more (ascending unless :desc)", valueName: "FIELD[:desc]",
                                      repeatable: true)
        static let zone = Option.text("zone", help: "the zone", valueName: "Z", default: "the zone the schema gives the record type")
        static let limit = Option.number("limit", help: "at most N records (CKQueryOperation.resultsLimit)", valid: { (n: Int) in n > 0 },
                                         message: { "--limit needs a whole number above 0, found '\($0)'" })
        static let specs = [predicate.spec, sort.spec, zone.spec, limit.spec] + RuntimeOptions.specs
        var query: RecordQuery
        var runtime: RuntimeOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            let p = arguments.positionals
            guard p.count == 1, let type = p.first else {
                throw UsageError(p.isEmpty ? "query needs a record TYPE" : "query takes one record TYPE, found \(p.count)")
            }
            runtime = try RuntimeOptions(arguments)
            let limit = try arguments.value(Self.limit)
            let sort = try arguments.all(Self.sort).map { s -> RecordQuery.Sort in
                if s.hasSuffix(":desc") { return RecordQuery.Sort(field: String(s.dropLast(5)), descending: true) }
                if s.hasSuffix(":asc") { return RecordQuery.Sort(field: String(s.dropLast(4))) }
                return RecordQuery.Sort(field: s)
            }
            query = RecordQuery(recordType: type, predicate: try arguments.value(Self.predicate), sort: sort,
                                zone: try arguments.value(Self.zone), environment: runtime.environment, limit: limit)
        }
    }
}
