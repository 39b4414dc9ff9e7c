import CKSchema
import Foundation

/// `ckschema migrate new|apply|status|hash`: versioned migrations of the local store.
enum MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "Write, apply and check versioned migrations of the local store."
    static let usage = "ckschema migrate new NAME | apply [--env development|production] [--to VERSION] [--dry-run] [--lock-timeout S] | status [--env ENV] | hash"
    static let options: [OptionSpec] = CommonOptions.report + [
        OptionSpec(name: "env", short: nil, takesValue: true, help: "the store environment",
                   values: ["development", "production"], defaultValue: "development"),
        OptionSpec(name: "to", short: nil, takesValue: true, help: "apply up to and including this version", valueName: "VERSION"),
        OptionSpec(name: "dry-run", short: nil, takesValue: false, help: "print what apply would do; change nothing"),
        OptionSpec(name: "lock-timeout", short: nil, takesValue: true, help: "seconds to wait for another apply's lock",
                   valueName: "S", defaultValue: "10"),
        OptionSpec(name: "store", short: nil, takesValue: true, help: "the store",
                   valueName: "PATH", defaultValue: "ckschema.yaml's store, or .ckschema/store.sqlite", isPath: true),
        OptionSpec(name: "migrations", short: nil, takesValue: true, help: "the migrations folder",
                   valueName: "PATH", defaultValue: "ckschema.yaml's, or Migrations", isPath: true),
        OptionSpec(name: "schema", short: nil, takesValue: true, help: "the development schema (new, status)",
                   valueName: "PATH", defaultValue: "ckschema.yaml's", isPath: true),
    ]
    static let subcommands = ["new", "apply", "status", "hash"]
    static let help = """
        subcommands:
          new NAME   write the next migration (Migrations/NNNN_NAME.yaml) from the difference
                     between what the migrations produce and the development schema; refuses a
                     change production would refuse and says what to do instead
          apply      apply pending migrations in order, each in one transaction, under a lock
          status     each migration as applied, pending, changed or missing, and drift
          hash       rewrite Migrations/ckschema.sum from the migration files

        Every subcommand refuses to run when Migrations/ckschema.sum does not match the files
        (status reports it). Migration steps: docs/migrations.md. Store tables: docs/store.md.

        examples:
          ckschema migrate new add_title
          ckschema migrate apply --env production --dry-run
          ckschema migrate status --format json
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard let sub = args.positionals.first else { throw UsageError("migrate needs a subcommand: new, apply, status or hash") }
        let config = try CommonOptions.configuration(args)
        let migrations = args.value("migrations") ?? config?.migrations ?? Configuration.defaultMigrations
        let storePath = args.value("store") ?? config?.store ?? Configuration.defaultStore
        let env = try environment(args)
        let rest = Array(args.positionals.dropFirst())
        switch sub {
        case "new":
            guard rest.count == 1 else { throw UsageError("migrate new takes one NAME, like add_title") }
            let folder = try MigrationFolder.load(path: migrations)
            try folder.verifySum()
            let dev = try SchemaSource.load(path: try SchemaArguments.development(args.value("schema"), config: config))
            guard let (path, text) = try MigrationGenerator.newMigration(folder: folder, name: rest[0], development: dev) else {
                io.write("nothing to migrate: replaying \(folder.path) already gives the development schema; no file written\n")
                return .success
            }
            try InputFile.write(text, to: path, overwrite: false)
            try MigrationFolder.load(path: migrations).writeSum()
            io.write("wrote \(path) and updated \(SumFile.fileName); review it, then run 'ckschema migrate apply'\n\n\(text)")
            return .success
        case "hash":
            guard rest.isEmpty else { throw UsageError("migrate hash takes no arguments") }
            let folder = try MigrationFolder.load(path: migrations)
            try folder.writeSum()
            io.write("wrote \(folder.sumPath) (\(folder.migrations.count) migration\(folder.migrations.count == 1 ? "" : "s"))\n")
            return .success
        case "apply":
            guard rest.isEmpty else { throw UsageError("migrate apply takes no positional arguments") }
            return try apply(args, io: &io, migrations: migrations, storePath: storePath, env: env, promote: config?.promote ?? LintConfiguration())
        case "status":
            guard rest.isEmpty else { throw UsageError("migrate status takes no positional arguments") }
            let format = try CommonOptions.outputFormat(args)
            let folder = try MigrationFolder.load(path: migrations)
            let store = FileManager.default.fileExists(atPath: storePath) ? try Store(path: storePath, access: .read) : nil
            let devPath = args.value("schema") ?? config?.developmentSchema
            let dev = try devPath.map { (p: String) throws(InputError) in try SchemaSource.load(path: p) }
            let status = try MigrationStatus.check(folder: folder, store: store, environment: env, development: dev)
            render(status, store: store == nil ? nil : storePath, format: format, io: &io)
            return Output.exitCode(for: status.diagnostics, failOn: try CommonOptions.failOn(args, config: config))
        default:
            throw UsageError("unknown migrate subcommand '\(sub)'\(Suggest.phrase(for: sub, in: ["new", "apply", "status", "hash"]))")
        }
    }

    static func environment(_ args: ParsedArguments) throws(UsageError) -> Environment {
        guard let v = args.value("env") else { return .development }
        guard let e = Environment(rawValue: v) else { throw UsageError("'\(v)' is not an environment; use development or production") }
        return e
    }

    static func apply(_ args: ParsedArguments, io: inout Output, migrations: String, storePath: String, env: Environment, promote: LintConfiguration) throws -> ExitCode {
        var target: Int?
        if let t = args.value("to") {
            guard let v = Int(t), v >= 0 else { throw UsageError("--to takes a migration version number, like 3") }
            target = v
        }
        var timeout = 10.0
        if let t = args.value("lock-timeout") {
            guard let v = Double(t), v >= 0 else { throw UsageError("--lock-timeout takes seconds, like 30") }
            timeout = v
        }
        let dryRun = args.flag("dry-run")
        let folder = try MigrationFolder.load(path: migrations)
        // A dry run never creates the store: a missing one is planned against an empty store in memory.
        let store: Store
        if !dryRun { store = try Store(path: storePath) }
        else if FileManager.default.fileExists(atPath: storePath) { store = try Store(path: storePath, access: .read) }
        else { store = try Store(path: ":memory:") }
        let out = io.out
        var options = Migrator.Options(environment: env, targetVersion: target, dryRun: dryRun, lockTimeout: timeout,
                                       progress: { line in out.write(Data((line + "\n").utf8)) })
        options.promote = promote
        // For the interrupted and concurrent apply tests: CKSCHEMA_DEBUG_PAUSE=FILE:MS pauses MS
        // milliseconds after each step of migration FILE (FILE:STEP:MS after step STEP only),
        // inside the migration's transaction.
        if let spec = ProcessInfo.processInfo.environment["CKSCHEMA_DEBUG_PAUSE"] {
            let parts = spec.split(separator: ":").map(String.init)
            if parts.count >= 2, let ms = Int(parts[parts.count - 1]) {
                let file = parts[0]
                let only = parts.count == 3 ? Int(parts[1]) : nil
                options.afterStep = { m, i in
                    guard m.fileName == file, only == nil || only == i + 1 else { return }
                    out.write(Data("paused after step \(i + 1) of \(m.fileName)\n".utf8))
                    usleep(useconds_t(ms * 1000))
                }
            }
        }
        // For the crash tests: CKSCHEMA_DEBUG_CACHE_KB=N makes the page cache tiny, so a data
        // step writes into the file before it commits and a kill leaves a hot journal.
        if let kb = ProcessInfo.processInfo.environment["CKSCHEMA_DEBUG_CACHE_KB"].flatMap({ Int($0) }) { options.cacheKilobytes = kb }
        let result = try Migrator.apply(folder: folder, store: store, options: options)
        if dryRun {
            io.write(result.migrations.isEmpty ? "dry run: nothing to apply to \(env.rawValue)\n" : "dry run: would apply to \(env.rawValue):\n")
            for m in result.migrations {
                io.write("  \(ControlCharacters.escaped(m.fileName))\n")
                for s in m.steps { io.write("    \(ControlCharacters.escaped(s.summary))\n") }
            }
            if result.recordsChanged > 0 { io.write("  about \(result.recordsChanged) record change\(result.recordsChanged == 1 ? "" : "s")\n") }
        } else if result.applied.isEmpty {
            io.write("\(env.rawValue) is up to date\n")
        } else {
            for a in result.applied { io.write("applied \(String(format: "%04d", a.version))_\(a.name) (\(a.durationMilliseconds) ms)\n") }
            if result.recordsChanged > 0 { io.write("\(result.recordsChanged) record change\(result.recordsChanged == 1 ? "" : "s")\n") }
        }
        if !result.diagnostics.isEmpty { io.report(result.diagnostics, format: .text, command: "migrate apply") }
        return .success
    }

    static func render(_ status: MigrationStatus, store: String?, format: OutputFormat, io: inout Output) {
        if format == .json {
            io.write(status.jsonReport(store: store) + "\n")
            return
        }
        if format == .text {
            io.write("\(status.environment.rawValue)" + (store.map { " in \(ControlCharacters.escaped($0))" } ?? " (no store yet)") + ":\n")
            let width = status.entries.map { ControlCharacters.escaped($0.name).count }.max() ?? 0
            for e in status.entries {
                let label = String(format: "%04d", e.version) + "_" + ControlCharacters.escaped(e.name).padding(toLength: width, withPad: " ", startingAt: 0)
                let line = "  \(label)  \(e.state.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))\(e.appliedAt.map { "  \($0)" } ?? "")"
                io.write(String(line.reversed().drop { $0 == " " }.reversed()) + "\n")
            }
            if status.entries.isEmpty { io.write("  no migrations\n") }
            let shown = status.diagnostics.filter { $0.code != StoreRules.pending.code }
            if !shown.isEmpty { io.write("\n") }
            io.report(shown, format: format, command: "migrate status")
            return
        }
        io.report(status.diagnostics, format: format, command: "migrate status")
    }
}
