import CKSchema
import Foundation

/// `ckschema import FILE.ckdb [-o FILE.yaml]`: Apple's schema language to the YAML form.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "Convert a .ckdb schema (cktool export-schema) or a Core Data model to the canonical YAML form."
    static let usage = "ckschema import FILE.ckdb|MODEL.xcdatamodeld [-o FILE.yaml] [--force] [--model-version NAME] [--configuration NAME]"
    static let options = [
        OptionSpec(name: "output", short: "o", takesValue: true, help: "write the YAML to FILE instead of standard output",
                   valueName: "FILE", isPath: true),
        OptionSpec(name: "force", short: nil, takesValue: false, help: "replace FILE.yaml wholesale instead of merging into it"),
    ] + CommonOptions.model
    static let help = """
        Reads a schema in Apple's CloudKit Schema Language (what 'xcrun cktool export-schema'
        writes, or a hand-written .ckdb file) and writes it in the canonical YAML form that
        'ckschema fmt' writes. Every error in the file is reported with file:line:col (exit 2).
        Fields are written in cktool's order (by name); cktool's default Users record type is
        added when the file has none. See docs/ckdb.md.

        When FILE.yaml already holds a YAML schema, the import merges into it: record
        types, fields, indexes, encryption and grants come from the .ckdb; the container,
        zones, requires, declared queries, descriptions, deprecations, reference targets and
        comments, which the CloudKit Schema Language cannot hold, are kept, and a note says
        which. --force replaces the file instead. A file that is not a YAML schema is never
        overwritten without --force.

        A Core Data model (.xcdatamodeld, .xcdatamodel) is written as the CD_ schema
        NSPersistentCloudKitContainer mirrors, headed by a comment naming the model and
        its version; see docs/coredata.md.

        example:
          xcrun cktool export-schema --team-id T --container-id iCloud.com.example.App \\
              --environment development --output-file schema.ckdb
          ckschema import schema.ckdb -o Schemas/development.yaml
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard args.positionals.count == 1, let path = args.positionals.first else {
            throw UsageError(args.positionals.isEmpty ? "no .ckdb file given" : "give exactly one .ckdb file")
        }
        if CoreDataReader.isModel(path: path) {
            let config = try CommonOptions.configuration(args)
            try write(try CoreDataImport.yaml(path: path, selection: CommonOptions.modelSelection(args, config: config)), to: args.value("output"), &io)
            return .success
        }
        let lower = path.lowercased()
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") {
            throw UsageError("'\(path)' is a YAML schema; import reads .ckdb files (use 'ckschema fmt' for YAML)")
        }
        var result = try CKDBImporter.importFile(path: path)
        let output = args.value("output")
        if let output, output != "-", !args.flag("force"), FileManager.default.fileExists(atPath: output) {
            let existing: SchemaFile
            do { existing = try SchemaSource.loadYAMLFile(path: output) } catch {
                throw InputError(.error(InputRules.invalidValue.code,
                                        "'\(output)' exists and is not a YAML schema ckschema can read, so import will not overwrite it",
                                        at: SourceLocation(file: output, line: 1, column: 1),
                                        fix: "choose another -o file, fix the file, or pass --force to replace it"))
            }
            result = CKDBImporter.merge(result, into: existing)
        }
        try write(result.yaml, to: output, &io)
        if !result.diagnostics.isEmpty {
            io.error(DiagnosticRenderer(format: .text, command: name, rules: RuleCatalog.info).render(result.diagnostics))
        }
        return .success
    }

    /// Writes `text` to a file, or to standard output when `path` is nil or `-`.
    static func write(_ text: String, to path: String?, _ io: inout Output) throws(InputError) {
        guard let path, path != "-" else {
            io.write(text)
            return
        }
        do {
            // Written from the string's own bytes: a large schema's text is not copied again.
            var text = text
            try text.withUTF8 { bytes in
                let data = bytes.baseAddress.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: bytes.count, deallocator: .none) } ?? Data()
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            }
        } catch {
            throw InputError(.error(InputRules.unwritable.code, "cannot write '\(path)': \(error.localizedDescription)",
                                    at: SourceLocation(file: path, line: 1, column: 1), fix: "check that the folder exists and is writable"))
        }
    }
}
