import CKSchema

/// `ckschema changes --zone Z`: a zone's changes since a token, as CKFetchRecordZoneChangesOperation returns them.
enum ChangesCommand: OptionsCommand {
    static let name = "changes"
    static let summary = "Fetch a zone's changed and deleted records since a change token, with a new token."
    static let help = """
        Prints the zone's records changed since TOKEN (every record without --since) in the Web
        Services shape, encrypted values left out, then one line for each record deleted since
        ({"recordName": ..., "deleted": true}), and last {"serverChangeToken": "..."}: pass it as
        --since next time. Exit 1 with CloudKit's error for the default zone or a zone without the
        fetchChanges capability; exit 2 for a token this store did not issue for this zone.

        example:
          token=$(ckschema changes --zone Journal | tail -1 | jq -r .serverChangeToken)
          ckschema records import --env development Schemas/fixtures/seed-trips.ndjson && ckschema changes --zone Journal --since "$token"
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let store = try options.runtime.readStore()
        let outcome = try io.streaming { sink in
            try ZoneChanges.fetch(store: store, environment: options.runtime.environment, zone: options.zone, since: options.since,
                                  format: options.runtime.format, sink: sink)
        }
        switch outcome {
        case .changes:
            return .success
        case .refused(let diagnostics):
            io.error(DiagnosticRenderer(format: .text, command: name).render(diagnostics))
            return .findings
        }
    }
}
