import CKSchema
import Foundation

/// `ckschema changes --zone Z`: a zone's changes since a token, as CKFetchRecordZoneChangesOperation returns them.
enum ChangesCommand: Command {
    static let name = "changes"
    static let summary = "Fetch a zone's changed and deleted records since a change token, with a new token."
    static let usage = "ckschema changes --zone Z [--since TOKEN] [--env E] [--format ndjson|text]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "zone", short: nil, takesValue: true),
        OptionSpec(name: "since", short: nil, takesValue: true),
    ] + QueryCommand.runtimeOptions
    static let help = """
        Prints the zone's records changed since TOKEN (every record without --since) in the Web
        Services shape, encrypted values left out, then one line for each record deleted since
        ({"recordName": ..., "deleted": true}), and last {"serverChangeToken": "..."}: pass it as
        --since next time. Exit 1 with CloudKit's error for the default zone or a zone without the
        fetchChanges capability; exit 2 for a token this store did not issue for this zone.

        options:
          --zone Z                 the custom zone (required)
          --since TOKEN            the serverChangeToken of an earlier run
          --env development|production   the store environment (default: development)
          --format ndjson|text     output (default: ndjson)
          --store PATH             the store (default: ckschema.yaml's store)
          --config PATH            use this ckschema.yaml instead of searching for one

        example:
          token=$(ckschema changes --zone Trips | tail -1 | jq -r .serverChangeToken)
          ckschema records import trips.ndjson && ckschema changes --zone Trips --since "$token"
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard args.positionals.isEmpty else { throw UsageError("changes takes no positional argument; name the zone with --zone") }
        guard let zone = args.value("zone") else { throw UsageError("changes needs --zone Z") }
        let format = try QueryCommand.lineFormat(args)
        let env = try MigrateCommand.environment(args)
        let store = try QueryCommand.readStore(args)
        let outcome = try io.streaming { sink in
            try ZoneChanges.fetch(store: store, environment: env, zone: zone, since: args.value("since"), format: format, sink: sink)
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
