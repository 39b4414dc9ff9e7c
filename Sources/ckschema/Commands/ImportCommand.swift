import CKSchema
import Foundation

/// `ckschema import FILE.ckdb [-o FILE.yaml]`: Apple's schema language to the YAML form.
enum ImportCommand: OptionsCommand {
    static let name = "import"
    static let summary = "Convert a .ckdb schema (cktool export-schema), a Core Data model or SwiftData sources to the canonical YAML form."
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
        overwritten without --force. With -o, a line on stderr says what was written
        ('wrote FILE.yaml (12 record types)' or 'merged into FILE.yaml (...)').

        A Core Data model (.xcdatamodeld, .xcdatamodel) is written as the CD_ schema
        NSPersistentCloudKitContainer mirrors, headed by a comment naming the model and
        its version; see docs/coredata.md. SwiftData sources (a .swift file, or a folder
        of them with no YAML schema) are written the same way from their @Model classes,
        with the reader's notes on stderr; see docs/swiftdata.md.

        example:
          xcrun cktool export-schema --team-id T --container-id iCloud.com.example.App \\
              --environment development --output-file schema.ckdb
          ckschema import schema.ckdb -o Schemas/development.yaml
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let path = options.path
        if SchemaSource.isSwiftSource(path: path) {
            let config = try CommonOptions.configuration(nil)
            let result = try CoreDataImport.swiftData(path: path, selection: options.model.selection(config))
            // Written as it is made: a large schema's text is never held whole (issue 36 point 4).
            try io.write(to: options.output) { chunk throws(InputError) in try result.writeYAML(chunk) }
            if !result.notes.isEmpty { io.error(DiagnosticRenderer(format: .text, command: name, rules: RuleCatalog.info).render(result.notes)) }
            sayWrote(options.output, io)
            // The process exits next: the model's hundreds of thousands of values are left for
            // the exit to reclaim (freeing them one by one was a seventh of a large import's time).
            KeptUntilExit.keep(result)
            return .success
        }
        if CoreDataReader.isModel(path: path) {
            let config = try CommonOptions.configuration(nil)
            try io.write(try CoreDataImport.yaml(path: path, selection: options.model.selection(config)), to: options.output)
            sayWrote(options.output, io)
            return .success
        }
        let lower = path.lowercased()
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") {
            throw UsageError("'\(path)' is a YAML schema; import reads .ckdb files (use 'ckschema fmt' for YAML)")
        }
        var result = try CKDBImporter.importFile(path: path)
        let output = options.output
        var merged = false
        if let output, output != "-", !options.force, FileManager.default.fileExists(atPath: output) {
            let existing: SchemaFile
            do { existing = try SchemaSource.loadYAMLFile(path: output) } catch {
                throw InputError(Diagnostic(rule: InputRules.invalidValue,
                                        "'\(output)' exists and is not a YAML schema ckschema can read, so import will not overwrite it",
                                        at: SourceLocation(file: output, line: 1, column: 1),
                                        fix: "choose another -o file, fix the file, or pass --force to replace it"))
            }
            result = CKDBImporter.merge(result, into: existing)
            merged = true
        }
        try io.write(result.yaml, to: output)
        if !result.diagnostics.isEmpty {
            io.error(DiagnosticRenderer(format: .text, command: name, rules: RuleCatalog.info).render(result.diagnostics))
        }
        let count = result.schema.recordTypes.count
        sayWrote(output, io, merged ? "merged into" : "wrote", detail: "\(count) record type\(count == 1 ? "" : "s")")
        // As for SwiftData above: the 90,000 fields of a large export and its YAML text are
        // left for the exit to reclaim (freeing them one by one is work nobody waits for).
        KeptUntilExit.keep(result)
        return .success
    }

    /// What the import wrote (issue 22: a command that writes a file says so), on stderr
    /// with the other progress, so that stdout stays the YAML when there is no `-o`.
    static func sayWrote(_ output: String?, _ io: Output, _ verb: String = "wrote", detail: String? = nil) {
        guard let output, output != "-" else { return }
        io.error("\(verb) \(ControlCharacters.escaped(output))" + (detail.map { " (\($0))" } ?? "") + "\n")
    }
}
