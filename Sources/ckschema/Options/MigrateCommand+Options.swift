import CKSchema

extension MigrateCommand {
    /// The options every migrate subcommand shares, all checked whichever subcommand runs.
    struct Options: ParsableOptions {
        static let to = Option.number("to", help: "apply up to and including this version", valueName: "VERSION",
                                      valid: { (v: Int) in v >= 0 }, message: { _ in "--to takes a migration version number, like 3" })
        static let dryRunFlag = Flag("dry-run", help: "print what apply would do; change nothing")
        static let lockTimeoutOption = Option.number("lock-timeout", help: "seconds to wait for another apply's lock", valueName: "S", default: "10",
                                                     valid: { (v: Double) in v >= 0 }, message: { _ in "--lock-timeout takes seconds, like 30" }).or(10.0)
        static let store = Option.path("store", help: "the store", default: "ckschema.yaml's store, or .ckschema/store.sqlite")
        static let migrations = Option.path("migrations", help: "the migrations folder", default: "ckschema.yaml's, or Migrations")
        static let schema = Option.path("schema", help: "the development schema (new, status)", default: "ckschema.yaml's")
        static let from = Option.path("from", help: "the production schema baseline takes (.ckdb, YAML, a pulled export)", valueName: "SCHEMA",
                                      default: "ckschema.yaml's production schema")
        static let renameOption = Option.text("rename", help: "new: rename a deployed field the only way production allows (add NEW, copy the values, deprecate OLD, update the declared queries); repeat for more",
                                              valueName: "TYPE.OLD:NEW", repeatable: true)
        static let forceFlag = Flag("force", help: "baseline over a folder that has migrations or a store that has a history, replacing them (it lists what it replaces)")
        static let specs = ReportOptions.specs + [CommonOptions.environment.spec, to.spec, dryRunFlag.spec, lockTimeoutOption.spec,
                                                  store.spec, migrations.spec, schema.spec, from.spec, forceFlag.spec, renameOption.spec]

        var report: ReportOptions
        var environment: Environment
        var target: Int?
        var dryRun: Bool
        var lockTimeout: Double
        var storePath, migrationsPath, schemaPath, fromPath: String?
        var force: Bool
        /// `--rename Type.old:new`, in order.
        var renames: [FieldRename]
        /// The words after the subcommand's.
        var arguments: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            report = try ReportOptions(arguments)
            environment = try arguments.value(CommonOptions.environment)
            target = try arguments.value(Self.to)
            dryRun = arguments.flag(Self.dryRunFlag)
            lockTimeout = try arguments.value(Self.lockTimeoutOption)
            storePath = try arguments.value(Self.store)
            migrationsPath = try arguments.value(Self.migrations)
            schemaPath = try arguments.value(Self.schema)
            fromPath = try arguments.value(Self.from)
            force = arguments.flag(Self.forceFlag)
            renames = try arguments.all(Self.renameOption).map { text throws(UsageError) -> FieldRename in
                guard let r = FieldRename(argument: text) else {
                    throw UsageError("--rename takes TYPE.OLD:NEW, like Trip.rating:score; found '\(ControlCharacters.shown(text))'")
                }
                return r
            }
            self.arguments = arguments.positionals
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
