import CKSchema

/// The options `query`, `changes` and `notifications` share: which store and environment,
/// and how records are printed.
struct RuntimeOptions: ParsableOptions {
    @Opt(CommonOptions.environment) var environment: Environment
    @Opt(Option.choice("format", help: "output", values: RecordLineFormat.allCases, default: "ndjson",
                       noun: "a format here").or(RecordLineFormat.ndjson)) var format: RecordLineFormat
    @Opt(.path("store", help: "the store", default: "ckschema.yaml's store")) var storePath: String?
    @Opt(CommonOptions.config) var configPath: String?

    /// The store named by `--store` or ckschema.yaml, opened for reading.
    func readStore() throws -> Store {
        let config = try CommonOptions.configuration(configPath)
        return try Store(path: Configuration.storePath(storePath, config: config), access: .read)
    }
}
