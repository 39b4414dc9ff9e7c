import CKSchema
import Foundation

/// `ckschema migrate new NAME`: the next migration, from what the development schema adds.
enum MigrateNew: Subcommand {
    static let name = "new"
    static let summary = "write the next migration (Migrations/NNNN_NAME.yaml) from the difference between what the migrations produce and the development schema; refuses, with promote's codes, a change production (the store's, else ckschema.yaml's production schema) would refuse, and says what to do instead; --rename TYPE.OLD:NEW writes a deployed field's rename as add, copy and deprecate"

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

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let (config, migrations, storePath) = try options.location.locations(config: options.configPath)
        let folder = try MigrationFolder.load(path: migrations)
        try folder.verifySum()
        let devPath = try SchemaArguments.development(options.schemaPath, config: config)
        var dev = try SchemaSource.load(path: devPath, model: config?.model ?? ModelSelection())
        let renames = options.renames
        // A rename is made in the development schema first (so that replaying the migrations
        // still gives it), then written back to that file with its comments.
        var renamedFile: SchemaFile?
        if !renames.isEmpty {
            let replayed = try folder.replay()
            var renamed = dev
            for r in renames { renamed = try r.apply(to: renamed, replayed: replayed) }
            if renamed != dev {
                guard ["yaml", "yml"].contains((devPath as NSString).pathExtension) else {
                    throw InputError(Diagnostic(rule: StoreRules.renameRefused,
                        "--rename changes the development schema, and \(devPath) is not one YAML file that ckschema can rewrite",
                        at: nil, fix: "make the rename in it by hand (add the new field with the old one's type and indexes, deprecate the old one, rename it in the declared queries), then run this command again"))
                }
                var file = try SchemaSource.loadYAMLFile(path: devPath)
                file.schema = renamed
                renamedFile = file
            }
            dev = renamed
        }
        let production = try knownProduction(config: config, store: storePath)
        guard let (path, text) = try MigrationGenerator.newMigration(folder: folder, name: options.name, development: dev, production: production,
                                                                     settings: config?.promote ?? RuleSettings(), renames: renames) else {
            io.write("nothing to migrate: replaying \(folder.path) already gives the development schema; no file written\n")
            return .success
        }
        // The first migration of a repository without Migrations/ creates the folder.
        try InputFile.createFolder(migrations)
        try InputFile.write(text, to: path, overwrite: false)
        try MigrationFolder.load(path: migrations).writeSum()
        if let file = renamedFile {
            try InputFile.write(SchemaFormatter.format(file), to: file.path, overwrite: true)
            io.write("wrote \(path), updated \(file.path) (\(renames.map { "\($0.recordType).\($0.to) added, \($0.recordType).\($0.from) deprecated" }.joined(separator: "; ")), declared queries renamed) and \(SumFile.fileName); review them, then run 'ckschema migrate apply'\n")
        } else {
            io.write("wrote \(path) and updated \(SumFile.fileName); review it, then run 'ckschema migrate apply'\n")
        }
        for r in renames { io.write("note: \(r.advice)\n") }
        io.write("\n\(text)")
        return .success
    }
}
