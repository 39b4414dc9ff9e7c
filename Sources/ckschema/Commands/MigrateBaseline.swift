import CKSchema

/// `ckschema migrate baseline [--from SCHEMA]`: production as the first migration.
enum MigrateBaseline: Subcommand {
    static let name = "baseline"
    static let summary = "adopt an app already in production: write Migrations/0001_baseline.yaml that builds the production schema (default: ckschema.yaml's), and record it as applied to the store's production and development"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options
        let (config, migrations, storePath) = try o.location.locations(config: o.configPath)
        let source = try SchemaArguments.production(o.fromPath, config: config)
        let model = config?.model ?? ModelSelection()
        // What a .ckdb export cannot say (zones, requires:) is carried from the development schema.
        let development = try config?.developmentSchema.map { (p: String) throws(InputError) -> Schema in try SchemaSource.load(path: p, model: model) }
        let result = try baseline(source: source, development: development, migrations: migrations, store: storePath, force: o.force, model: model)
        write(result, store: storePath, io: &io)
        return .success
    }

    /// Loads `source` and baselines it, the Users record type of `usersFrom` (default: the
    /// development schema) added when the export has none. `init --from-production` baselines
    /// through here too, its Users from the development schema it writes (cktool's default).
    static func baseline(source: String, development: Schema? = nil, usersFrom: Schema? = nil, migrations: String, store: String, force: Bool,
                         model: ModelSelection = ModelSelection()) throws(InputError) -> Baseline.Result {
        let production = Baseline.agreeingOnUsers(try SchemaSource.load(path: source, model: model), development: usersFrom ?? development)
        let folder = try MigrationFolder.load(path: migrations)
        return try Baseline.write(production: production, development: development, source: source, folder: folder, storePath: store, force: force)
    }

    /// What it wrote, and what it replaced.
    static func write(_ r: Baseline.Result, store: String, io: inout Output) {
        for what in r.replaced { io.write("replaced \(ControlCharacters.escaped(what))\n") }
        io.write("wrote \(ControlCharacters.escaped(r.path)) (\(r.steps) step\(r.steps == 1 ? "" : "s")) and \(ControlCharacters.escaped(r.sumPath))\n")
        io.write("recorded it as applied to production and development in \(ControlCharacters.escaped(store)); next: edit the development schema, then 'ckschema migrate new NAME'\n")
    }
}
