import CKSchema

extension ScanCommand {
    /// scan's options: the schema and its environment, --verbose, the report, and the Swift paths.
    struct Options: ParsableOptions {
        @Positionals(.any("PATH")) var paths: [String]
        @Opt(.path("schema", help: "the schema the code is checked against", default: "ckschema.yaml's schema for --env, else none: only the checks that need no schema")) var schema: String?
        @Opt(Option.choice("env", help: "the environment whose schema the code must fit", values: [Environment.production, .development],
                           default: "production", noun: "an environment").or(Environment.production)) var environment: Environment
        @Opt(Flag("verbose", help: "also list the calls not resolved (CK907) and declared queries no code runs (CK908)")) var verbose: Bool
        @Group var report: ReportOptions
        @Group var model: ModelOptions
    }
}
