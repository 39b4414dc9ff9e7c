import CKSchema

extension InitCommand {
    /// init's options: the folder, the container identifier, --force.
    struct Options: ParsableOptions {
        static let containerOption = Option.text("container", help: "the iCloud container identifier (iCloud. and a reverse-DNS name)",
                                                 valueName: "ID", default: "iCloud.com.example.App").or("iCloud.com.example.App")
        static let forceFlag = Flag("force", help: "overwrite files that exist")
        static let fromProductionOption = Option.path("from-production", help: "adopt an app already in production: this export (.ckdb, YAML) becomes Schemas/production.ckdb, the development schema and the baseline migration, recorded in the store",
                                                      valueName: "SCHEMA")
        static let specs = [containerOption.spec, forceFlag.spec, fromProductionOption.spec]
        var folder: String
        var container: String
        var force: Bool
        var fromProduction: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            if arguments.positionals.count > 1 { throw UsageError("init takes at most one folder") }
            folder = arguments.positionals.first ?? "."
            container = try arguments.value(Self.containerOption)
            force = arguments.flag(Self.forceFlag)
            fromProduction = try arguments.value(Self.fromProductionOption)
        }
    }
}
