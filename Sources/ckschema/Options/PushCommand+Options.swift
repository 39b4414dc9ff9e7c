import CKSchema

extension PushCommand {
    /// push's options: the schema, how far to go, how to reach CloudKit.
    struct Options: ParsableOptions {
        static let dryRunFlag = Flag("dry-run", help: "stop after CloudKit's own validation (cktool validate-schema); nothing is imported")
        static let offlineFlag = Flag("offline", help: "with --dry-run: run every local step (lint, the production gate, the .ckdb export) and no cktool")
        static let yesFlag = Flag("yes", short: "y", help: "import without asking; needed where there is no terminal (CI)")
        static let specs = [dryRunFlag.spec, offlineFlag.spec, yesFlag.spec, CommonOptions.format.spec, CommonOptions.config.spec]
            + PullOptions.specs + ModelOptions.specs

        var schema: String?
        var dryRun, offline, yes: Bool
        var format: OutputFormat
        var configPath: String?
        var target: PullOptions
        var model: ModelOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            let p = arguments.positionals
            if p.count > 1 { throw UsageError("push takes one schema, the development schema; got \(p.count)") }
            schema = p.first
            dryRun = arguments.flag(Self.dryRunFlag)
            offline = arguments.flag(Self.offlineFlag)
            yes = arguments.flag(Self.yesFlag)
            if offline && !dryRun { throw UsageError("--offline runs no cktool, so it cannot import: pass --dry-run --offline") }
            format = try arguments.value(CommonOptions.format)
            configPath = try arguments.value(CommonOptions.config)
            target = try PullOptions(arguments)
            model = try ModelOptions(arguments)
        }
    }
}
