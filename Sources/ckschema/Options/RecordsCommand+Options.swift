import CKSchema

extension RecordsCommand {
    /// The options records' subcommands share, all checked whichever subcommand runs.
    struct Options: ParsableOptions {
        // --format and --config, not ReportOptions: no records subcommand has a --fail-on.
        @Opt(CommonOptions.format) var format: OutputFormat
        @Opt(CommonOptions.config) var configPath: String?
        @Opt(CommonOptions.environment) var environment: Environment
        @Opt(Option.choice("save-policy", help: "how a record that exists is saved", values: RecordImporter.SavePolicy.allCases,
                           default: "ifServerRecordUnchanged", noun: "a save policy", suggest: true).or(RecordImporter.SavePolicy.ifServerRecordUnchanged))
        var savePolicy: RecordImporter.SavePolicy
        @Opt(.path("store", help: "the store", default: "ckschema.yaml's store")) var storePath: String?
        @Opt(.text("type", help: "export only records of this type", valueName: "T")) var recordType: String?
        @Opt(.path("output", short: "o", help: "export to FILE instead of standard output", valueName: "FILE")) var outputPath: String?
        @Opt(Option.text("zone", help: "delete: the zone of the records", valueName: "Z", default: "_defaultZone").or("_defaultZone")) var zone: String
        /// The words after the subcommand's: files to import, or record names to delete.
        @Positionals() var arguments: [String]

        /// The store named by `--store`, else ckschema.yaml's, else the default.
        func store(access: Store.Access = .write) throws -> Store {
            try Store(path: Configuration.storePath(storePath, config: CommonOptions.configuration(configPath)), access: access)
        }

        /// These options, when the words after the subcommand's are as `valid` wants.
        func requiring(_ valid: ([String]) -> Bool, _ message: String) throws(UsageError) -> Options {
            guard valid(arguments) else { throw UsageError(message) }
            return self
        }
    }
}
