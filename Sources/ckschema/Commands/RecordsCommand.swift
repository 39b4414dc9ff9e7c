import CKSchema

/// `ckschema records import|export|delete`: records in and out of the local store.
enum RecordsCommand: CommandGroup {
    static let name = "records"
    static let summary = "Import NDJSON records into the local store, export them, or delete them."
    static let subcommandTypes: [any Subcommand.Type] = [RecordsImport.self, RecordsExport.self, RecordsDelete.self]
    static let help = """
        import reads records in the CloudKit Web Services shape, one JSON object a line:
          {"recordName": "n1", "recordType": "Note", "zoneID": {"zoneName": "Notes"},
           "recordChangeTag": "...", "fields": {"title": {"value": "Hi", "type": "STRING"}}}
        ('-' reads standard input, always as NDJSON; a line may hold at most 16 MB, as in validate),
        checks each with the validate command's rules (CK4xx) and saves them as CloudKit does: batches of at most 400, all or nothing per batch in a
        zone with the atomic capability, a stale change tag is a conflict. Production refuses
        unknown fields; development adds them to its schema (just-in-time schema). The whole
        import is one transaction. Exit 1 when any record failed (they are listed).

        export writes the environment's records back as NDJSON in the same shape.

        delete deletes the named records of one zone (--zone, default _defaultZone) in one
        transaction; a name that is not found is reported (CK740, exit 1). Saves and deletes both
        record the notifications of the environment's subscriptions (ckschema notifications).

        examples:
          ckschema records import --env development Schemas/fixtures/seed-trips.ndjson
          ckschema records export --env development -o trips.ndjson
        """
}
