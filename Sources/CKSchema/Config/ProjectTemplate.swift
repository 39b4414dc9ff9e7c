/// What `ckschema init` writes into a new repository.
public enum ProjectTemplate {
    /// Files to create, relative to the repository root, with their text.
    public static func files(container: String) -> [(path: String, text: String)] {
        [
            (Configuration.fileName, """
            # ckschema's configuration: every command reads it (docs/schema-format.md).
            ckschema: 1
            schemas:
              development: Schemas/development.yaml
              production: Schemas/production.yaml
            migrations: Migrations
            store: .ckschema/store.sqlite
            lint:
              failOn: error

            """),
            ("Schemas/development.yaml", """
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
            ("Schemas/production.yaml", """
            # What production holds: export it with 'cktool export-schema' and 'ckschema import'.
            ckschema: 1
            container: \(SchemaEmitter.scalar(container))

            """),
            ("Migrations/.gitkeep", ""),
        ]
    }
}
