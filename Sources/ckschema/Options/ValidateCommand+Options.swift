import CKSchema

extension ValidateCommand {
    /// validate's options, each converted and checked before any record is read.
    struct Options: ParsableOptions {
        @Positionals(.many("FILE")) var files: [String]
        @Opt(.path("schema", help: "schema source (YAML file, folder, .ckdb, Core Data model)",
                   valueName: "SCHEMA", default: "the ckschema.yaml schema of the environment")) var schema: String?
        @Opt(Option.choice("env", help: "production refuses unknown fields; in development they are what CloudKit would add",
                           values: [Environment.production, .development], default: "production",
                           noun: "an environment").or(Environment.production)) var environment: Environment
        @Opt(.positive("batch", help: "check each run of N records as one modify operation (400 items, 2 MB, parent references)")) var batch: Int?
        @Opt(.positive("max-errors", help: "stop after N errors")) var maxErrors: Int?
        @Opt(Flag("infer", help: "development: print the schema change, as YAML, that CloudKit would make from the records (text: stdout after the report; other formats: stderr)"))
        var infer: Bool
        @Opt(Option.positive("jobs", short: "j", help: "threads", default: "the number of cores").or(RecordValidator.defaultJobs)) var jobs: Int
        @Opt(.choice("input-format", help: "the record file format, instead of detecting it", values: RecordFormat.allCases,
                     noun: "an input format")) var inputFormat: RecordFormat?
        @Group var report: ReportOptions
        @Group var model: ModelOptions

        func validate() throws(UsageError) {
            if files.isEmpty { throw UsageError("no record file given; name one or more files, or '-' for standard input") }
            if infer && environment != .development { throw UsageError("--infer needs --env development: production never adds fields") }
        }
    }
}
