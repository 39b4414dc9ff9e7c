import Foundation
import CKSchemaDiff

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
