import Foundation
import PackagePlugin

/// Regenerates the typed Swift of the package's CloudKit schema (`ckschema generate swift`,
/// docs/codegen.md) into the plugin's work folder on every build that changes the schema, and
/// compiles it into the target: a schema change breaks compilation at each stale call site.
///
/// The schema, in order: the development schema that the package's `ckschema.yaml` names,
/// else the target's own `.ckdb` file, else its `Schemas` folder of YAML files. The code goes
/// into one file, `CloudSchema.swift` (a build command names its outputs before it runs, and
/// the record types are known only once the schema is read), with internal access.
@main
struct CKSchemaGenerate: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let files = (target as? SourceModuleTarget)?.sourceFiles.map(\.url) ?? []
        return Self.commands(tool: try context.tool(named: "ckschema").url, package: context.package.directoryURL,
                             targetFiles: files, targetName: target.name, work: context.pluginWorkDirectoryURL)
    }

    static func commands(tool: URL, package: URL, targetFiles: [URL], targetName: String, work: URL) -> [Command] {
        let folder = work.appendingPathComponent("CloudSchema")
        let output = folder.appendingPathComponent("CloudSchema.swift")
        var arguments = ["generate", "swift", "-o", folder.path, "--single-file"]
        var inputs: [URL] = [tool]
        let config = package.appendingPathComponent("ckschema.yaml")
        let ckdb = targetFiles.filter { $0.pathExtension.lowercased() == "ckdb" }
        let yaml = targetFiles.filter { ["yaml", "yml"].contains($0.pathExtension.lowercased()) && $0.deletingLastPathComponent().lastPathComponent == "Schemas" }
        if FileManager.default.fileExists(atPath: config.path) {
            arguments += ["--config", config.path]
            inputs += [config] + files(under: package.appendingPathComponent("Schemas"))
        } else if ckdb.count == 1 {
            arguments.insert(ckdb[0].path, at: 2)
            inputs += ckdb
        } else if let first = yaml.first, ckdb.isEmpty {
            arguments.insert(first.deletingLastPathComponent().path, at: 2)
            inputs += yaml
        } else {
            Diagnostics.error("ckschema: target '\(targetName)' has no schema to generate from: the package has no ckschema.yaml, and the target has not exactly one .ckdb file or a Schemas folder of YAML files; run 'swift package --allow-writing-to-package-directory ckschema init', or remove the CKSchemaGenerate plugin from the target")
            return []
        }
        return [.buildCommand(displayName: "ckschema generate swift (\(targetName))", executable: tool, arguments: arguments,
                              inputFiles: inputs, outputFiles: [output])]
    }

    /// Every schema file under a folder, so an edit to any of them regenerates.
    static func files(under folder: URL) -> [URL] {
        // The walk of ckschema's FolderWalk: each real folder once, never out of `folder`.
        PluginInputs.files(under: folder)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same, for an Xcode app project's target (Build Phases > Run Build Tool Plug-ins).
extension CKSchemaGenerate: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        Self.commands(tool: try context.tool(named: "ckschema").url, package: context.xcodeProject.directoryURL,
                      targetFiles: target.inputFiles.map(\.url), targetName: target.displayName, work: context.pluginWorkDirectoryURL)
    }
}
#endif
