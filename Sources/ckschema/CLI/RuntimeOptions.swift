import CKSchema

/// The options `query`, `changes` and `notifications` share: which store and environment,
/// and how records are printed.
struct RuntimeOptions: ParsableOptions {
    static let format = Option.choice("format", help: "output", values: RecordLineFormat.allCases, default: "ndjson",
                                      noun: "a format here").or(RecordLineFormat.ndjson)
    static let store = Option.path("store", help: "the store", default: "ckschema.yaml's store")
    static let specs = [CommonOptions.environment.spec, Self.format.spec, store.spec, CommonOptions.config.spec]
    var environment: Environment
    var format: RecordLineFormat
    var storePath: String?
    var configPath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.value(Self.format)
        environment = try arguments.value(CommonOptions.environment)
        storePath = try arguments.value(Self.store)
        configPath = try arguments.value(CommonOptions.config)
    }

    /// The store named by `--store` or ckschema.yaml, opened for reading.
    func readStore() throws -> Store {
        let config = try CommonOptions.configuration(configPath)
        return try Store(path: Configuration.storePath(storePath, config: config), access: .read)
    }
}
