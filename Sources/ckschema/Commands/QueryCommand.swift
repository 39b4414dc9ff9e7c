import CKSchema
import Foundation

/// `ckschema query TYPE`: records of the store that match a predicate, as CloudKit would serve them.
enum QueryCommand: Command {
    static let name = "query"
    static let summary = "Query the local store's records with a CloudKit predicate, refused where CloudKit refuses it."
    static let usage = "ckschema query TYPE [--predicate P] [--sort FIELD[:desc]]... [--zone Z] [--env E] [--limit N] [--format ndjson|text]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "predicate", short: nil, takesValue: true),
        OptionSpec(name: "sort", short: nil, takesValue: true, repeatable: true),
        OptionSpec(name: "zone", short: nil, takesValue: true),
        OptionSpec(name: "limit", short: nil, takesValue: true),
    ] + runtimeOptions

    /// The options `query`, `changes` and `notifications` share.
    static let runtimeOptions: [OptionSpec] = [
        OptionSpec(name: "env", short: nil, takesValue: true),
        OptionSpec(name: "format", short: nil, takesValue: true),
        OptionSpec(name: "store", short: nil, takesValue: true),
        CommonOptions.config,
    ]
    static let help = """
        Runs a CKQuery over the store: the predicate is CloudKit's NSPredicate subset (see
        docs/runtime.md), each field it filters on must be queryable and each sort field sortable,
        as production requires. Matching records are printed as NDJSON in the Web Services shape,
        encrypted values left out. Exit 0 with the records; exit 1 with CloudKit's own message when
        CloudKit would refuse the query (Field 'body' is not marked queryable); exit 2 when the
        store cannot be read.

        options:
          --predicate P            NSPredicate format text (default: TRUEPREDICATE, every record)
          --sort FIELD[:desc]      a sort descriptor; repeat for more (ascending unless :desc)
          --zone Z                 the zone (default: the zone the schema gives the record type)
          --env development|production   the store environment (default: development)
          --limit N                at most N records (CKQueryOperation.resultsLimit)
          --format ndjson|text     output (default: ndjson)
          --store PATH             the store (default: ckschema.yaml's store)
          --config PATH            use this ckschema.yaml instead of searching for one

        examples:
          ckschema query Trip --predicate "difficulty >= 3 AND startedAt > CAST(0, 'NSDate')" --sort startedAt:desc
          ckschema query Note --predicate "self CONTAINS 'alps'" --limit 10 --format text
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard args.positionals.count == 1, let type = args.positionals.first else {
            throw UsageError(args.positionals.isEmpty ? "query needs a record TYPE" : "query takes one record TYPE, found \(args.positionals.count)")
        }
        let format = try lineFormat(args)
        var limit: Int?
        if let l = args.value("limit") {
            guard let n = Int(l), n > 0 else { throw UsageError("--limit needs a whole number above 0, found '\(l)'") }
            limit = n
        }
        let sort = args.all("sort").map { s -> RecordQuery.Sort in
            if s.hasSuffix(":desc") { return RecordQuery.Sort(field: String(s.dropLast(5)), descending: true) }
            if s.hasSuffix(":asc") { return RecordQuery.Sort(field: String(s.dropLast(4))) }
            return RecordQuery.Sort(field: s)
        }
        let query = RecordQuery(recordType: type, predicate: args.value("predicate"), sort: sort, zone: args.value("zone"),
                                environment: try MigrateCommand.environment(args), limit: limit)
        let store = try readStore(args)
        let outcome = try io.streaming { sink in try StoreQuery.run(query, store: store, format: format, sink: sink) }
        switch outcome {
        case .records: return .success
        case .refused(let diagnostics):
            io.error(DiagnosticRenderer(format: .text, command: name).render(diagnostics))
            return .findings
        }
    }

    /// The store named by `--store` or ckschema.yaml, opened for reading.
    static func readStore(_ args: ParsedArguments) throws -> Store {
        let config = try CommonOptions.configuration(args)
        return try Store(path: args.value("store") ?? config?.store ?? ".ckschema/store.sqlite", access: .read)
    }

    static func lineFormat(_ args: ParsedArguments) throws(UsageError) -> RecordLineFormat {
        guard let f = args.value("format") else { return .ndjson }
        guard let v = RecordLineFormat(rawValue: f) else { throw UsageError("'\(f)' is not a format here; use ndjson or text") }
        return v
    }
}

extension Output {
    /// Runs `body` with a sink that writes the lines it is given in 64 KB chunks.
    @discardableResult
    func streaming<T>(_ body: ((String) throws -> Void) throws -> T) rethrows -> T {
        var buffer = ""
        defer { write(buffer) }
        return try body { line in
            buffer += line
            if buffer.utf8.count >= 1 << 16 {
                write(buffer)
                buffer = ""
            }
        }
    }
}
