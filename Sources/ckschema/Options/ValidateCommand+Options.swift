import CKSchema

extension ValidateCommand {
    /// validate's options, each converted and checked before any record is read.
    struct Options: ParsableOptions {
        static let schemaOption = Option.path("schema", help: "schema source (YAML file, folder, .ckdb, Core Data model)",
                                              valueName: "SCHEMA", default: "the ckschema.yaml schema of the environment")
        static let env = Option.choice("env", help: "production refuses unknown fields; in development they are what CloudKit would add",
                                       values: [Environment.production, .development], default: "production",
                                       noun: "an environment").or(Environment.production)
        static let batchOption = Option.positive("batch", help: "check each run of N records as one modify operation (400 items, 2 MB, parent references)")
        static let maxErrorsOption = Option.positive("max-errors", help: "stop after N errors")
        static let inferFlag = Flag("infer", help: "development: print the schema change, as YAML, that CloudKit would make from the records (text: stdout after the report; other formats: stderr)")
        static let jobsOption = Option.positive("jobs", short: "j", help: "threads", default: "the number of cores").or(RecordValidator.defaultJobs)
        static let inputFormatOption = Option.choice("input-format", help: "the record file format, instead of detecting it",
                                                     values: RecordFormat.allCases, noun: "an input format")
        static let specs = [schemaOption.spec, env.spec, batchOption.spec, maxErrorsOption.spec, inferFlag.spec, jobsOption.spec,
                            inputFormatOption.spec] + ReportOptions.specs + ModelOptions.specs

        var schema: String?
        var environment: Environment
        var batch: Int?
        var maxErrors: Int?
        var infer: Bool
        var jobs: Int
        var inputFormat: RecordFormat?
        var report: ReportOptions
        var model: ModelOptions
        var files: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            report = try ReportOptions(arguments)
            environment = try arguments.value(Self.env)
            schema = try arguments.value(Self.schemaOption)
            files = arguments.positionals
            if files.isEmpty { throw UsageError("no record file given; name one or more files, or '-' for standard input") }
            batch = try arguments.value(Self.batchOption)
            maxErrors = try arguments.value(Self.maxErrorsOption)
            jobs = try arguments.value(Self.jobsOption)
            inputFormat = try arguments.value(Self.inputFormatOption)
            infer = arguments.flag(Self.inferFlag)
            if infer && environment != .development { throw UsageError("--infer needs --env development: production never adds fields") }
            model = try ModelOptions(arguments)
        }
    }
}
