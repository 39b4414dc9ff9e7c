import CKSchema

/// Options that several commands share, declared once.
enum CommonOptions {
    static let format = Option.choice("format", help: "report format", values: OutputFormat.allCases, default: "text",
                                      noun: "an output format").or(OutputFormat.text)
    /// `--fail-on`: the same words in every command (`error`, `warning`, `note`); a command
    /// that plans a promotion (`check`, `promote`) also takes `review`, a plan step's class
    /// that reports as a warning (`failOnWithReview`).
    static let failOn = failOnOption(review: false)
    static let failOnWithReview = failOnOption(review: true)

    /// The words --fail-on takes, in the order usage shows them.
    static func failOnWords(review: Bool) -> [String] { review ? ["error", "warning", "review", "note"] : ["error", "warning", "note"] }

    private static func failOnOption(review: Bool) -> Option<Severity?> {
        let words = failOnWords(review: review)
        return Option(spec: OptionSpec(name: "fail-on", short: nil, takesValue: true,
                                       help: review ? "lowest severity that fails the run (review: a plan step that needs review, as warning)" : "lowest severity that fails the run",
                                       values: words, defaultValue: "error, or lint.failOn"),
                      defaultValue: nil) { (text: String) throws(UsageError) -> Severity? in
            if review, text == "review" { return .warning }
            if words.contains(text), let s = Severity(rawValue: text) { return s }
            throw UsageError("'\(text)' is not a severity for --fail-on; use \(UsageError.list(words))")
        }
    }
    static let config = Option.path("config", help: "use this ckschema.yaml instead of searching for one")
    static let modelVersion = Option.text("model-version", help: "a Core Data model's version", valueName: "NAME",
                                          default: ".xccurrentversion's")
    static let modelConfiguration = Option.text("configuration", help: "the model configuration mirrored to CloudKit", valueName: "NAME",
                                                default: "the one marked Used with CloudKit, else every entity")
    static let environment = Option.choice("env", help: "the store environment", values: [Environment.development, .production],
                                           default: "development", noun: "an environment").or(Environment.development)

    /// The configuration named by `--config`, else the nearest `ckschema.yaml`, else nil.
    static func configuration(_ path: String?) throws(InputError) -> Configuration? {
        let config: Configuration?
        if let path { config = try Configuration.load(path: path) } else { config = try Configuration.find() }
        if let config {
            let unknown = RuleCatalog.unknownCodes(in: config)
            if !unknown.isEmpty { throw InputError(unknown) }
        }
        return config
    }
}

/// `--format`, `--fail-on` and `--config`: what every reporting command takes.
struct ReportOptions: ParsableOptions {
    @Opt(CommonOptions.format) var format: OutputFormat
    @Opt(CommonOptions.failOn) var failOn: Severity?
    @Opt(CommonOptions.config) var configPath: String?

    func configuration() throws(InputError) -> Configuration? { try CommonOptions.configuration(configPath) }
    /// The given severity, else ckschema.yaml's `lint.failOn`, else error.
    func failOn(_ config: Configuration?) -> Severity { failOn ?? config?.failOn ?? .error }
}

/// `ReportOptions` for `check`, whose `--fail-on` also takes `review` (its promote step plans).
struct PlanReportOptions: ParsableOptions {
    @Opt(CommonOptions.format) var format: OutputFormat
    @Opt(CommonOptions.failOnWithReview) var failOn: Severity?
    @Opt(CommonOptions.config) var configPath: String?

    func configuration() throws(InputError) -> Configuration? { try CommonOptions.configuration(configPath) }
    /// The given severity, else ckschema.yaml's `lint.failOn`, else error.
    func failOn(_ config: Configuration?) -> Severity { failOn ?? config?.failOn ?? .error }
}

/// `--model-version` and `--configuration`: which version and configuration of a Core
/// Data model (`.xcdatamodeld`) a command reads; ckschema.yaml's `coreData:` is the default.
struct ModelOptions: ParsableOptions {
    @Opt(CommonOptions.modelVersion) var version: String?
    @Opt(CommonOptions.modelConfiguration) var configuration: String?

    /// The flags, with what they leave unset taken from ckschema.yaml.
    func selection(_ config: Configuration?) -> ModelSelection {
        ModelSelection(version: version, configuration: configuration).orElse(config?.model)
    }
}
