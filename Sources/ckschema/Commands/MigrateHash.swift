import CKSchema

/// `ckschema migrate hash`: Migrations/ckschema.sum rewritten from the migration files.
enum MigrateHash: Subcommand {
    static let name = "hash"
    static let summary = "rewrite Migrations/ckschema.sum from the migration files"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let folder = try MigrationFolder.load(path: try options.migrations())
        try folder.writeSum()
        io.write("wrote \(folder.sumPath) (\(folder.migrations.count) migration\(folder.migrations.count == 1 ? "" : "s"))\n")
        return .success
    }
}
