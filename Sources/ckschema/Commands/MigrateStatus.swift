import CKSchema
import Foundation

/// `ckschema migrate status`: each migration's state in an environment of the store, and drift.
enum MigrateStatus: Subcommand {
    static let name = "status"
    static let summary = "each migration as applied, pending, changed or missing, and drift"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options, format = o.report.format
        let (config, migrations, storePath) = try o.location.locations(config: o.report.configPath)
        let folder = try MigrationFolder.load(path: migrations)
        let store = FileManager.default.fileExists(atPath: storePath) ? try Store(path: storePath, access: .read) : nil
        let dev = try (o.schemaPath ?? config?.developmentSchema).map { (p: String) throws(InputError) in try SchemaSource.load(path: p, model: config?.model ?? ModelSelection()) }
        // Whatever the environment shown, a store whose production is not ckschema.yaml's says so.
        let status = try ProductionStatus.check(folder: folder, store: store, environment: o.environment, development: dev,
                                                productionPath: config?.productionSchema,
                                                loadProduction: { (p: String) throws(InputError) in try SchemaSource.load(path: p, model: config?.model ?? ModelSelection()) }).status
        switch format {
        case .json: io.write(status.jsonReport(store: store == nil ? nil : storePath) + "\n")
        case .text: text(status, store: store == nil ? nil : storePath, io: &io)
        default: io.report(status.diagnostics, format: format, command: "migrate status")
        }
        return Output.exitCode(for: status.diagnostics, failOn: o.report.failOn(config))
    }

    /// One line a migration, then the diagnostics other than "pending" (the lines say it).
    static func text(_ status: MigrationStatus, store: String?, io: inout Output) {
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
        io.report(shown, format: .text, command: "migrate status")
    }
}
