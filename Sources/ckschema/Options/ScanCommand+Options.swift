import CKSchema

extension ScanCommand {
    /// scan's options: the schema and its environment, --verbose, the report, and the Swift paths.
    struct Options: ParsableOptions {
        static let schema = Option.path("schema", help: "the schema the code is checked against", default: "ckschema.yaml's schema for --env")
        static let environment = Option.choice("env", help: "the environment whose schema the code must fit", values: [Environment.production, .development],
                                               default: "production", noun: "an environment").or(Environment.production)
        static let verboseFlag = Flag("verbose", help: "also list the calls not resolved (CK907) and declared queries no code runs (CK908)")
        static let specs = [schema.spec, environment.spec, verboseFlag.spec] + ReportOptions.specs + ModelOptions.specs
        var report: ReportOptions
        var model: ModelOptions
        var schema: String?
        var environment: Environment
        var verbose: Bool
        var paths: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            report = try ReportOptions(arguments)
            model = try ModelOptions(arguments)
            schema = try arguments.value(Self.schema)
            environment = try arguments.value(Self.environment)
            verbose = arguments.flag(Self.verboseFlag)
            paths = arguments.positionals
        }
    }
}
