import CKSchema

extension MigrateCommand {
    /// The options every migrate subcommand shares, all checked whichever subcommand runs.
    struct Options: ParsableOptions {
        @Group var report: ReportOptions
        @Opt(CommonOptions.environment) var environment: Environment
        @Opt(.number("to", help: "apply up to and including this version", valueName: "VERSION",
                     valid: { (v: Int) in v >= 0 }, message: { _ in "--to takes a migration version number, like 3" })) var target: Int?
        @Opt(Flag("dry-run", help: "print what apply would do; change nothing")) var dryRun: Bool
        @Opt(Option.number("lock-timeout", help: "seconds to wait for another apply's lock", valueName: "S", default: "10",
                           valid: { (v: Double) in v >= 0 }, message: { _ in "--lock-timeout takes seconds, like 30" }).or(10.0)) var lockTimeout: Double
        @Opt(.path("store", help: "the store", default: "ckschema.yaml's store, or .ckschema/store.sqlite")) var storePath: String?
        @Opt(.path("migrations", help: "the migrations folder", default: "ckschema.yaml's, or Migrations")) var migrationsPath: String?
        @Opt(.path("schema", help: "the development schema (new, status)", default: "ckschema.yaml's")) var schemaPath: String?
        @Opt(.path("from", help: "the production schema baseline takes (.ckdb, YAML, a pulled export)", valueName: "SCHEMA",
                   default: "ckschema.yaml's production schema")) var fromPath: String?
        @Opt(all: .text("rename", help: "new: rename a deployed field the only way production allows (add NEW, copy the values, deprecate OLD, update the declared queries); repeat for more",
                        valueName: "TYPE.OLD:NEW", repeatable: true)) var renameArguments: [String]
        @Opt(Flag("force", help: "baseline over a folder that has migrations or a store that has a history, replacing them (it lists what it replaces)"))
        var force: Bool
        /// The words after the subcommand's.
        @Positionals() var arguments: [String]

        /// `--rename Type.old:new`, in order (each checked by `validate`).
        var renames: [FieldRename] { renameArguments.compactMap(FieldRename.init(argument:)) }

        func validate() throws(UsageError) {
            for text in renameArguments where FieldRename(argument: text) == nil {
                throw UsageError("--rename takes TYPE.OLD:NEW, like Trip.rating:score; found '\(ControlCharacters.escaped(text))'")
            }
        }

        /// ckschema.yaml, and the migrations folder and store it names unless the options do.
        func locations() throws -> (config: Configuration?, migrations: String, store: String) {
            let config = try report.configuration()
            return (config, Configuration.migrationsPath(migrationsPath, config: config),
                    Configuration.storePath(storePath, config: config))
        }

        /// These options, for a subcommand that takes no words after its own.
        func alone(_ message: String) throws(UsageError) -> Options {
            guard arguments.isEmpty else { throw UsageError(message) }
            return self
        }
    }
}
