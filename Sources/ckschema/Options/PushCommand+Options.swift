import CKSchema

extension PushCommand {
    /// push's options: the schema, how far to go, how to reach CloudKit.
    struct Options: ParsableOptions {
        @Opt(Flag("dry-run", help: "stop after CloudKit's own validation (cktool validate-schema); nothing is imported")) var dryRun: Bool
        @Opt(Flag("offline", help: "with --dry-run: run every local step (lint, the production gate, the .ckdb export) and no cktool").within("dry-run"))
        var offline: Bool
        @Opt(Flag("yes", short: "y", help: "import without asking; needed where there is no terminal (CI)")) var yes: Bool
        @Group var deploy: DeployOptions

        func validate() throws(UsageError) {
            if deploy.schemas.count > 1 { throw UsageError("push takes one schema, the development schema; got \(deploy.schemas.count)") }
            if offline && !dryRun { throw UsageError("--offline runs no cktool, so it cannot import: pass --dry-run --offline") }
        }
    }
}
