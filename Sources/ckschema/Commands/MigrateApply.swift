import CKSchema
import Foundation

/// `ckschema migrate apply`: pending migrations applied in order, or with `--dry-run` listed.
enum MigrateApply: Subcommand {
    static let name = "apply"
    static let summary = "apply pending migrations in order, each in one transaction, under a lock"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options, env = o.environment
        let (config, migrations, storePath) = try o.location.locations(config: o.configPath)
        let folder = try MigrationFolder.load(path: migrations)
        // A dry run never creates the store: a missing one is planned against an empty store in memory.
        let store: Store
        if !o.dryRun { store = try Store(path: storePath) }
        else if FileManager.default.fileExists(atPath: storePath) { store = try Store(path: storePath, access: .read) }
        else { store = try Store(path: ":memory:") }
        let out = io.out
        var migratorOptions = Migrator.Options(environment: env, targetVersion: o.target, dryRun: o.dryRun, lockTimeout: o.lockTimeout,
                                               progress: { line in out.write(Data((line + "\n").utf8)) })
        migratorOptions.promote = config?.promote ?? RuleSettings()
        migratorOptions.addDebugHooks(output: out)
        let result = try Migrator.apply(folder: folder, store: store, options: migratorOptions)
        let changes = "\(result.recordsChanged) record change\(result.recordsChanged == 1 ? "" : "s")"
        if o.dryRun {
            io.write(result.migrations.isEmpty ? "dry run: nothing to apply to \(env.rawValue)\n" : "dry run: would apply to \(env.rawValue):\n")
            for m in result.migrations {
                io.write("  \(ControlCharacters.escaped(m.fileName))\n")
                for s in m.steps { io.write("    \(ControlCharacters.escaped(s.summary))\n") }
            }
            if result.recordsChanged > 0 { io.write("  about \(changes)\n") }
        } else if result.applied.isEmpty {
            io.write("\(env.rawValue) is up to date\n")
        } else {
            for a in result.applied { io.write("applied \(String(format: "%04d", a.version))_\(a.name) (\(a.durationMilliseconds) ms)\n") }
            if result.recordsChanged > 0 { io.write("\(changes)\n") }
        }
        if !result.diagnostics.isEmpty { io.report(result.diagnostics, format: .text, command: "migrate apply") }
        return .success
    }
}
