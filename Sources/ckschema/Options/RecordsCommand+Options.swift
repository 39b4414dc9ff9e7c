import CKSchema

// Each records subcommand declares the options it takes, and only those: its usage line,
// `--help`, completions and man page section list them, and any other is refused.
// (--format and --config, not ReportOptions: no records subcommand has a --fail-on.)

extension RecordsCommand {
    /// `--store`, which every records subcommand takes.
    static let store = Option.path("store", help: "the store", default: "ckschema.yaml's store")
}

/// `--config` and `--env`: the ckschema.yaml that names the store, and the environment of
/// the store a records subcommand works on.
struct RecordsEnvironmentOptions: ParsableOptions {
    @Opt(CommonOptions.config) var configPath: String?
    @Opt(CommonOptions.environment) var environment: Environment

    /// The store at `path` (`--store`), else ckschema.yaml's, else the default.
    func store(_ path: String?, access: Store.Access = .write) throws -> Store {
        try Store(path: Configuration.storePath(path, config: CommonOptions.configuration(configPath)), access: access)
    }
}

extension RecordsImport {
    /// `records import FILE...`'s options.
    struct Options: ParsableOptions {
        @Positionals(.many("FILE")) var files: [String]
        @Opt(CommonOptions.format) var format: OutputFormat
        @Group var target: RecordsEnvironmentOptions
        @Opt(Option.choice("save-policy", help: "how a record that exists is saved", values: RecordImporter.SavePolicy.allCases,
                           default: "ifServerRecordUnchanged", noun: "a save policy", suggest: true).or(RecordImporter.SavePolicy.ifServerRecordUnchanged))
        var savePolicy: RecordImporter.SavePolicy
        @Opt(RecordsCommand.store) var storePath: String?

        func validate() throws(UsageError) {
            guard !files.isEmpty else { throw UsageError("records import needs at least one FILE") }
        }
    }
}

extension RecordsExport {
    /// `records export`'s options.
    struct Options: ParsableOptions {
        @Group var target: RecordsEnvironmentOptions
        @Opt(RecordsCommand.store) var storePath: String?
        @Opt(Option.text("type", help: "export only records of this type", valueName: "T").completing(.recordTypes)) var recordType: String?
        @Opt(.path("output", short: "o", help: "export to FILE instead of standard output", valueName: "FILE")) var outputPath: String?
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            guard words.isEmpty else { throw UsageError("records export takes no FILE; use -o FILE") }
        }
    }
}

extension RecordsDelete {
    /// `records delete RECORDNAME...`'s options.
    struct Options: ParsableOptions {
        @Positionals(.many("RECORDNAME")) var names: [String]
        @Opt(CommonOptions.format) var format: OutputFormat
        @Group var target: RecordsEnvironmentOptions
        @Opt(RecordsCommand.store) var storePath: String?
        @Opt(Option.text("zone", help: "delete: the zone of the records", valueName: "Z", default: "_defaultZone").completing(.zones).or("_defaultZone")) var zone: String
        @Opt(Flag("dry-run", help: "delete: list the records it would delete (those named, and those their deleteSelf references take with them); delete nothing")) var dryRun: Bool

        func validate() throws(UsageError) {
            guard !names.isEmpty else { throw UsageError("records delete needs at least one RECORDNAME") }
        }
    }
}
