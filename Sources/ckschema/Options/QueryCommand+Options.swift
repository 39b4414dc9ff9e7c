import CKSchema

extension QueryCommand {
    /// query's options: the record type, predicate, sort, zone and limit of one CKQuery.
    struct Options: ParsableOptions {
        @Positionals(.one("TYPE")) var types: [String]
        @Opt(.text("predicate", help: "NSPredicate format text", valueName: "P", default: "TRUEPREDICATE, every record")) var predicate: String?
        @Opt(all: .text("sort", help: "a sort descriptor; repeat for more (ascending unless :desc)", valueName: "FIELD[:desc]",
                        repeatable: true)) var sort: [String]
        @Opt(Option.text("zone", help: "the zone", valueName: "Z", default: "the zone the schema gives the record type").completing(.zones)) var zone: String?
        @Opt(.number("limit", help: "at most N records (CKQueryOperation.resultsLimit)", valid: { (n: Int) in n > 0 },
                     message: { "--limit needs a whole number above 0, found '\($0)'" })) var limit: Int?
        @Group var runtime: RuntimeOptions

        func validate() throws(UsageError) {
            guard types.count == 1 else {
                throw UsageError(types.isEmpty ? "query needs a record TYPE" : "query takes one record TYPE, found \(types.count)")
            }
        }

        /// The query the options describe.
        var query: RecordQuery {
            let sort = sort.map { s -> RecordQuery.Sort in
                if s.hasSuffix(":desc") { return RecordQuery.Sort(field: String(s.dropLast(5)), descending: true) }
                if s.hasSuffix(":asc") { return RecordQuery.Sort(field: String(s.dropLast(4))) }
                return RecordQuery.Sort(field: s)
            }
            return RecordQuery(recordType: types.first ?? "", predicate: predicate, sort: sort, zone: zone,
                               environment: runtime.environment, limit: limit)
        }
    }
}
