import Foundation
import PackagePlugin

/// Lints the package's CloudKit schemas on every build that changes them, so Xcode's issue
/// navigator shows ckschema's `path:line:col: error: ... [CKnnn]` lines at their places.
///
/// What it lints, in order: the target's own schema files (`.ckdb` files, and `.yaml` files
/// in a folder named `Schemas`), else the development schema that the package's
/// `ckschema.yaml` names. A target with neither is an error: the plugin is attached where
/// there is nothing to lint.
@main
struct CKSchemaLint: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let files = (target as? SourceModuleTarget)?.sourceFiles.map(\.url) ?? []
        return try Self.commands(tool: try context.tool(named: "ckschema").url, package: context.package.directoryURL,
                                 targetFiles: files, targetName: target.name, work: context.pluginWorkDirectoryURL)
    }

    /// The schema files a target carries.
    static func schemaFiles(_ files: [URL]) -> [URL] {
        files.filter { url in
            let ext = url.pathExtension.lowercased()
            return ext == "ckdb" || ((ext == "yaml" || ext == "yml") && url.pathComponents.dropLast().contains("Schemas"))
        }.sorted { $0.path < $1.path }
    }

    static func commands(tool: URL, package: URL, targetFiles: [URL], targetName: String, work: URL) throws -> [Command] {
        let stamp = work.appendingPathComponent("ckschema-lint.stamp")
        let own = schemaFiles(targetFiles)
        var arguments: [String]
        var inputs: [URL]
        let config = package.appendingPathComponent("ckschema.yaml")
        if !own.isEmpty {
            arguments = ["lint"] + own.map(\.path)
            inputs = own
            if FileManager.default.fileExists(atPath: config.path) {
                arguments += ["--config", config.path]
                inputs.append(config)
            }
        } else if FileManager.default.fileExists(atPath: config.path) {
            arguments = ["lint", "--config", config.path]
            inputs = [config] + Self.files(under: package.appendingPathComponent("Schemas"))
        } else {
            Diagnostics.error("ckschema: target '\(targetName)' has no schema (.ckdb, or .yaml under Schemas/) and the package has no ckschema.yaml; run 'swift package --allow-writing-to-package-directory ckschema init', or remove the CKSchemaLint plugin from the target")
            return []
        }
        // A build command needs an output to be skipped when nothing changed: the stamp is
        // touched only when lint passes, so a failing schema is linted again next build.
        let script = "\"$0\" \"$@\" && touch \"\(stamp.path)\""
        return [.buildCommand(displayName: "ckschema lint (\(targetName))", executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, tool.path] + arguments, inputFiles: inputs + [tool], outputFiles: [stamp])]
    }

    /// Every schema file under a folder, so an edit to any of them reruns lint.
    static func files(under folder: URL) -> [URL] {
        // The walk of ckschema's FolderWalk: each real folder once, never out of `folder`.
        PluginInputs.files(under: folder)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same, for an Xcode app project's target (Build Phases > Run Build Tool Plug-ins).
extension CKSchemaLint: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try Self.commands(tool: try context.tool(named: "ckschema").url, package: context.xcodeProject.directoryURL,
                          targetFiles: target.inputFiles.map(\.url), targetName: target.displayName, work: context.pluginWorkDirectoryURL)
    }
}
#endif
