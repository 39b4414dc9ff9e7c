import Foundation
import PackagePlugin

/// `swift package ckschema <command> [arguments]`: runs the ckschema this package builds,
/// in the package's folder, so `ckschema.yaml` and the schemas are found as in a terminal.
@main
struct CKSchemaCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "ckschema")
        let root = context.package.directoryURL
        // Without a command, ckschema prints its help; without ckschema.yaml, commands
        // that need it say so themselves (exit 2). The plugin adds one hint for the case
        // most likely here: an app package that has not run `init` yet.
        let hasConfig = FileManager.default.fileExists(atPath: root.appendingPathComponent("ckschema.yaml").path)
        if !hasConfig, let first = arguments.first, !["init", "--help", "-h", "help", "--version", "completion", "man", "json-schema", "import"].contains(first) {
            Diagnostics.remark("no ckschema.yaml in \(root.path); run 'swift package --allow-writing-to-package-directory ckschema init' to create one")
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = root
        try process.run()
        process.waitUntilExit()
        let status = process.terminationStatus
        if status != 0 {
            // ckschema has printed its diagnostics; say what the exit code meant and fail the command.
            Diagnostics.error(status == 1 ? "ckschema \(arguments.first ?? ""): findings (exit 1)" : "ckschema \(arguments.first ?? ""): could not do its job (exit \(status))")
            exit(status)
        }
    }
}
