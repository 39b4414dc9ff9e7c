import CKSchema

// Each migrate subcommand declares the options it takes, and only those: its usage line,
// `--help`, completions and man page section list them, and any other is refused.

extension MigrateCommand {
    /// Declarations more than one subcommand takes, so each reads the same everywhere.
    static let store = Option.path("store", help: "the store", default: "ckschema.yaml's store, or .ckschema/store.sqlite")
    static let migrations = Option.path("migrations", help: "the migrations folder", default: "ckschema.yaml's, or Migrations")
    static let schema = Option.path("schema", help: "the development schema (new, status)", default: "ckschema.yaml's")
}

/// `--store` and `--migrations`: the store and the migrations folder new, apply, status and
/// baseline work on; ckschema.yaml names them unless these do.
struct MigrateLocationOptions: ParsableOptions {
    @Opt(MigrateCommand.store) var storePath: String?
    @Opt(MigrateCommand.migrations) var migrationsPath: String?

    /// ckschema.yaml (`--config`'s, else the nearest), and the migrations folder and store it
    /// names unless the options do.
    func locations(config path: String?) throws -> (config: Configuration?, migrations: String, store: String) {
        let config = try CommonOptions.configuration(path)
        return (config, Configuration.migrationsPath(migrationsPath, config: config), Configuration.storePath(storePath, config: config))
    }
}

extension MigrateNew {
    /// `migrate new NAME`'s options.
    struct Options: ParsableOptions {
        @Positionals(.one("NAME")) var words: [String]
        @Opt(CommonOptions.config) var configPath: String?
        @Group var location: MigrateLocationOptions
        @Opt(MigrateCommand.schema) var schemaPath: String?
        @Opt(all: .text("rename", help: "new: rename a deployed field the only way production allows (add NEW, copy the values, deprecate OLD, update the declared queries); repeat for more",
                        valueName: "TYPE.OLD:NEW", repeatable: true)) var renameArguments: [String]

        /// The migration's name.
        var name: String { words[0] }
        /// `--rename Type.old:new`, in order (each checked by `validate`).
        var renames: [FieldRename] { renameArguments.compactMap(FieldRename.init(argument:)) }

        func validate() throws(UsageError) {
            for text in renameArguments where FieldRename(argument: text) == nil {
                throw UsageError("--rename takes TYPE.OLD:NEW, like Trip.rating:score; found '\(ControlCharacters.escaped(text))'")
            }
            guard words.count == 1 else { throw UsageError("migrate new takes one NAME, like add_title") }
        }
    }
}

extension MigrateApply {
    /// `migrate apply`'s options.
    struct Options: ParsableOptions {
        @Opt(CommonOptions.config) var configPath: String?
        @Opt(CommonOptions.environment) var environment: Environment
        @Opt(Option.number("to", help: "apply up to and including this version", valueName: "VERSION",
                           valid: { (v: Int) in v >= 0 }, message: { _ in "--to takes a migration version number, like 3" }).completing(.migrations)) var target: Int?
        @Opt(Flag("dry-run", help: "print what apply would do; change nothing")) var dryRun: Bool
        @Opt(Option.number("lock-timeout", help: "seconds to wait for another apply's lock", valueName: "S", default: "10",
                           valid: { (v: Double) in v >= 0 }, message: { _ in "--lock-timeout takes seconds, like 30" }).or(10.0)) var lockTimeout: Double
        @Group var location: MigrateLocationOptions
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            guard words.isEmpty else { throw UsageError("migrate apply takes no positional arguments") }
        }
    }
}

extension MigrateStatus {
    /// `migrate status`'s options.
    struct Options: ParsableOptions {
        @Group var report: ReportOptions
        @Opt(CommonOptions.environment) var environment: Environment
        @Group var location: MigrateLocationOptions
        @Opt(MigrateCommand.schema) var schemaPath: String?
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            guard words.isEmpty else { throw UsageError("migrate status takes no positional arguments") }
        }
    }
}

extension MigrateHash {
    /// `migrate hash`'s options: it reads only the migrations folder.
    struct Options: ParsableOptions {
        @Opt(CommonOptions.config) var configPath: String?
        @Opt(MigrateCommand.migrations) var migrationsPath: String?
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            guard words.isEmpty else { throw UsageError("migrate hash takes no arguments") }
        }

        /// The migrations folder: `--migrations`, else ckschema.yaml's, else Migrations.
        func migrations() throws -> String {
            Configuration.migrationsPath(migrationsPath, config: try CommonOptions.configuration(configPath))
        }
    }
}

extension MigrateBaseline {
    /// `migrate baseline`'s options.
    struct Options: ParsableOptions {
        @Opt(CommonOptions.config) var configPath: String?
        @Group var location: MigrateLocationOptions
        @Opt(.path("from", help: "the production schema baseline takes (.ckdb, YAML, a pulled export)", valueName: "SCHEMA",
                   default: "ckschema.yaml's production schema")) var fromPath: String?
        @Opt(Flag("force", help: "baseline over a folder that has migrations or a store that has a history, replacing them (it lists what it replaces)"))
        var force: Bool
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            guard words.isEmpty else { throw UsageError("migrate baseline takes no positional arguments; name the schema with --from") }
        }
    }
}
