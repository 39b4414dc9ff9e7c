import CKSchema
import Foundation

/// `ckschema migrate new NAME`: the next migration, from what the development schema adds.
enum MigrateNew: Subcommand {
    static let name = "new"
    static let synopsis = "new NAME"
    static let summary = "write the next migration (Migrations/NNNN_NAME.yaml) from the difference between what the migrations produce and the development schema; refuses, with promote's codes, a change production (the store's, else ckschema.yaml's production schema) would refuse, and says what to do instead"
    static let accepts: Set<String>? = ["config", "migrations", "store", "schema"]

    /// What production has: the store's production when it holds a schema, else the
    /// production schema ckschema.yaml names, else nothing known.
    static func knownProduction(config: Configuration?, store path: String) throws(InputError) -> MigrationGenerator.Production? {
        if FileManager.default.fileExists(atPath: path) {
            let store = try Store(path: path, access: .read)
            let schema = try store.schema(.production)
            if !schema.recordTypes.isEmpty || !schema.zones.isEmpty {
                return MigrationGenerator.Production(schema: schema, source: path, history: try store.history(.production))
            }
        }
        guard let file = config?.productionSchema else { return nil }
        return MigrationGenerator.Production(schema: try SchemaSource.load(path: file, model: config?.model ?? ModelSelection()), source: file)
    }

    struct Options: ArgumentsDecodable {
        var migrate: MigrateCommand.Options
        var name: String

        init(_ arguments: ParsedArguments) throws(UsageError) {
            migrate = try MigrateCommand.Options(arguments)
            guard migrate.arguments.count == 1 else { throw UsageError("migrate new takes one NAME, like add_title") }
            name = migrate.arguments[0]
        }
    }

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let (config, migrations, storePath) = try options.migrate.locations()
        let folder = try MigrationFolder.load(path: migrations)
        try folder.verifySum()
        let dev = try SchemaSource.load(path: try SchemaArguments.development(options.migrate.schemaPath, config: config), model: config?.model ?? ModelSelection())
        let production = try knownProduction(config: config, store: storePath)
        guard let (path, text) = try MigrationGenerator.newMigration(folder: folder, name: options.name, development: dev, production: production,
                                                                     settings: config?.promote ?? LintConfiguration()) else {
            io.write("nothing to migrate: replaying \(folder.path) already gives the development schema; no file written\n")
            return .success
        }
        // The first migration of a repository without Migrations/ creates the folder.
        try InputFile.createFolder(migrations)
        try InputFile.write(text, to: path, overwrite: false)
        try MigrationFolder.load(path: migrations).writeSum()
        io.write("wrote \(path) and updated \(SumFile.fileName); review it, then run 'ckschema migrate apply'\n\n\(text)")
        return .success
    }
}
