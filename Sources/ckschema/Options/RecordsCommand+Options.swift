import CKSchema

extension RecordsCommand {
    /// The options records' subcommands share, all checked whichever subcommand runs.
    struct Options: ParsableOptions {
        static let savePolicyOption = Option.choice("save-policy", help: "how a record that exists is saved",
                                                    values: RecordImporter.SavePolicy.allCases, default: "ifServerRecordUnchanged",
                                                    noun: "a save policy", suggest: true).or(RecordImporter.SavePolicy.ifServerRecordUnchanged)
        static let store = Option.path("store", help: "the store", default: "ckschema.yaml's store")
        static let type = Option.text("type", help: "export only records of this type", valueName: "T")
        static let output = Option.path("output", short: "o", help: "export to FILE instead of standard output", valueName: "FILE")
        static let zone = Option.text("zone", help: "delete: the zone of the records", valueName: "Z", default: "_defaultZone").or("_defaultZone")
        static let specs = ReportOptions.specs + [CommonOptions.environment.spec, savePolicyOption.spec, store.spec, type.spec,
                                                  output.spec, zone.spec]

        var report: ReportOptions
        var environment: Environment
        var savePolicy: RecordImporter.SavePolicy
        var storePath, recordType, outputPath: String?
        var zone: String
        /// The words after the subcommand's: files to import, or record names to delete.
        var arguments: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            report = try ReportOptions(arguments)
            environment = try arguments.value(CommonOptions.environment)
            savePolicy = try arguments.value(Self.savePolicyOption)
            storePath = try arguments.value(Self.store)
            recordType = try arguments.value(Self.type)
            outputPath = try arguments.value(Self.output)
            zone = try arguments.value(Self.zone)
            self.arguments = arguments.positionals
        }

        /// The store named by `--store`, else ckschema.yaml's, else the default.
        func store(access: Store.Access = .write) throws -> Store {
            try Store(path: Configuration.storePath(storePath, config: report.configuration()), access: access)
        }

        /// These options, when the words after the subcommand's are as `valid` wants.
        func requiring(_ valid: ([String]) -> Bool, _ message: String) throws(UsageError) -> Options {
            guard valid(arguments) else { throw UsageError(message) }
            return self
        }
    }
}
