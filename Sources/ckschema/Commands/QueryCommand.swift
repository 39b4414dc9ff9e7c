import CKSchema

/// `ckschema query TYPE`: records of the store that match a predicate, as CloudKit would serve them.
enum QueryCommand: OptionsCommand {
    static let name = "query"
    static let positionalNames: CompletedNames? = .recordTypes
    static let summary = "Query the local store's records with a CloudKit predicate, refused where CloudKit refuses it."
    static let help = """
        Runs a CKQuery over the store: the predicate is CloudKit's NSPredicate subset (see
        docs/runtime.md), each field it filters on must be queryable and each sort field sortable,
        as production requires. Matching records are printed as NDJSON in the Web Services shape,
        encrypted values left out. Exit 0 with the records; exit 1 with CloudKit's own message when
        CloudKit would refuse the query (Field 'body' is not marked queryable); exit 2 when the
        store cannot be read.

        examples:
          ckschema query Trip --predicate "startedAt > CAST(0, 'NSDate')" --sort startedAt:desc
          ckschema query Trip --predicate "self CONTAINS 'alps'" --limit 10 --format text
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let store = try options.runtime.readStore()
        let outcome = try io.streaming { sink in try StoreQuery.run(options.query, store: store, format: options.runtime.format, sink: sink) }
        switch outcome {
        case .records(let n):
            // Nothing found, and the records sit in another zone: say so rather than print nothing.
            if n == 0, let note = try StoreQuery.otherZones(options.query, store: store) {
                io.error(DiagnosticRenderer(format: .text, command: name).render([note]))
            }
            return .success
        case .refused(let diagnostics):
            io.error(DiagnosticRenderer(format: .text, command: name).render(diagnostics))
            return .findings
        }
    }
}
