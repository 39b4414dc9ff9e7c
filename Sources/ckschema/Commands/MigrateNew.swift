import CKSchema

/// `ckschema migrate new NAME`: the next migration, from what the development schema adds.
enum MigrateNew: Subcommand {
    static let name = "new"
    static let synopsis = "new NAME"
    static let summary = "write the next migration (Migrations/NNNN_NAME.yaml) from the difference between what the migrations produce and the development schema; refuses a change production would refuse and says what to do instead"

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
        let (config, migrations, _) = try options.migrate.locations()
        let folder = try MigrationFolder.load(path: migrations)
        try folder.verifySum()
        let dev = try SchemaSource.load(path: try SchemaArguments.development(options.migrate.schemaPath, config: config))
        guard let (path, text) = try MigrationGenerator.newMigration(folder: folder, name: options.name, development: dev) else {
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
