import Foundation
import CKSchemaCKDB
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaYAML

/// What `ckschema init` writes into a new repository.
public enum ProjectTemplate {
    /// Files to create, relative to the repository root, with their text.
    public static func files(container: String) -> [(path: String, text: String)] {
        [
            (Configuration.fileName, """
            # yaml-language-server: $schema=Schemas/\(FormatJSONSchema.fileName)
            # ckschema's configuration: every command reads it (docs/schema-format.md).
            ckschema: 1
            container: \(SchemaEmitter.scalar(container))
            schemas:
              development: Schemas/development.yaml
              production: Schemas/production.ckdb
            migrations: Migrations
            store: .ckschema/store.sqlite
            lint:
              failOn: error

            """),
            ("Schemas/development.yaml", """
            # yaml-language-server: $schema=\(FormatJSONSchema.fileName)
            # The development schema: edit it, then 'ckschema check'.
            ckschema: 1
            container: \(SchemaEmitter.scalar(container))
            zones:
              Notes: { database: private, capabilities: [fetchChanges, atomic] }
            recordTypes:
              Note:
                zone: Notes
                requires: [fetchChanges]
                system:
                  recordName: [queryable]
                fields:
                  title: { type: string, indexes: [queryable, searchable, sortable] }
                  body: { type: string, encrypted: true }
                  createdOn: { type: timestamp, indexes: [queryable, sortable] }
            queries:
              - { name: notesByDate, recordType: Note, filter: [createdOn], sort: [createdOn] }

            """),
            // What CloudKit holds, in the form cktool exports it: 'ckschema pull' replaces it
            // verbatim. Empty until the first deployment.
            ("Schemas/production.ckdb", """
            // What production holds: refresh it with 'ckschema pull' (xcrun cktool export-schema).
            DEFINE SCHEMA

            """),
            ("Schemas/\(FormatJSONSchema.fileName)", FormatJSONSchema.render()),
            ("Migrations/.gitkeep", ""),
        ]
    }

    /// Where the template keeps the production schema.
    public static let productionPath = "Schemas/production.ckdb"

    /// `init --from-production`: the files that differ from the template for an app already
    /// in production: its export as `Schemas/production.ckdb` (byte for byte for a `.ckdb`,
    /// else exported), and the same schema as the development YAML. Throws `InputError` for a
    /// malformed export, or one with no record type (nothing to adopt), before anything is written.
    public static func adopting(production path: String, container: String, root: String) throws(InputError) -> (schema: Schema, files: [(path: String, text: String)]) {
        let ckdb = SchemaSource.isCKDB(path: path)
        var schema = ckdb ? try CKDBImporter.importFile(path: path).schema : try SchemaSource.load(path: path)
        guard !schema.recordTypes.filter({ !CloudKitRules.systemRecordTypes.contains($0.name) }).isEmpty || !schema.zones.isEmpty else {
            throw InputError(Diagnostic(rule: InputRules.invalidValue, "'\(path)' has no record type of the app's own: there is nothing in production to adopt; nothing was written",
                                        at: SourceLocation(file: path, line: 1, column: 1),
                                        fix: "export production with `xcrun cktool export-schema` (or `ckschema pull`), or run `ckschema init` without --from-production"))
        }
        schema.container = container
        let production: String
        if ckdb, let data = FileManager.default.contents(atPath: path) {
            production = String(decoding: data, as: UTF8.self)
        } else {
            production = CKDBExporter.export(schema).text
        }
        var files: [(path: String, text: String)] = []
        // The export given may already be the template's production file: it is kept as it is.
        let target = (root as NSString).appendingPathComponent(productionPath)
        if URL(fileURLWithPath: target).standardizedFileURL.path != URL(fileURLWithPath: path).standardizedFileURL.path {
            files.append((productionPath, production))
        } else {
            files.append((productionPath, ""))
        }
        files.append(("Schemas/development.yaml", "# yaml-language-server: $schema=\(FormatJSONSchema.fileName)\n# The development schema, from production when ckschema was adopted: edit it, then 'ckschema migrate new NAME'.\n" + schema.canonicalYAML))
        return (schema, files)
    }

    /// The template's files with those of `replacements` put in their place; a replacement
    /// with empty text is a file that exists already and is left alone.
    public static func replacing(_ files: [(path: String, text: String)], with replacements: [(path: String, text: String)]) -> [(path: String, text: String)] {
        let byPath = Dictionary(replacements.map { ($0.path, $0.text) }, uniquingKeysWith: { a, _ in a })
        return files.compactMap { f in
            guard let text = byPath[f.path] else { return f }
            return text.isEmpty ? nil : (f.path, text)
        }
    }

    /// The line `init` adds to `.gitignore`: the local store is not source.
    public static let gitignoreLine = ".ckschema/"

    /// `.gitignore`'s text with the store folder ignored; nil when it already is.
    public static func gitignore(adding existing: String?) -> String? {
        let text = existing ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.contains(where: { $0 == gitignoreLine || $0 == "/" + gitignoreLine || $0 == ".ckschema" || $0 == "/.ckschema" }) { return nil }
        return text + (text.isEmpty || text.hasSuffix("\n") ? "" : "\n") + gitignoreLine + "\n"
    }
}
