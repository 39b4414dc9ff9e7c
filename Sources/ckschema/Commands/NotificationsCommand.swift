import CKSchema
import Foundation

/// `ckschema notifications`: the notifications the store's subscriptions produced, oldest first.
enum NotificationsCommand: Command {
    static let name = "notifications"
    static let summary = "Print the notifications the environment's subscriptions produced, oldest first."
    static let usage = "ckschema notifications [--since N] [--env E] [--format ndjson|text]"
    static let options: [OptionSpec] = [OptionSpec(name: "since", short: nil, takesValue: true)] + QueryCommand.runtimeOptions
    static let help = """
        Saving and deleting records through the store (records import, records delete, migrations'
        data steps) evaluates the environment's subscriptions. Each query notification is shaped
        like CKQueryNotification: {"sequence", "notificationType": "query", "subscriptionID",
        "queryNotificationReason": recordCreated|recordUpdated|recordDeleted, "recordID":
        {"recordName", "zoneName"}, "recordFields" (the desired keys only; never an encrypted
        value), "databaseScope"}; zone and database subscriptions give "recordZone" and
        "database" notifications. Pass the last sequence number as --since to read only newer ones.

        options:
          --since N                only notifications with a sequence number above N
          --env development|production   the store environment (default: development)
          --format ndjson|text     output (default: ndjson)
          --store PATH             the store (default: ckschema.yaml's store)
          --config PATH            use this ckschema.yaml instead of searching for one

        example:
          ckschema records import Schemas/fixtures/seed-trips.ndjson && ckschema notifications --format text
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard args.positionals.isEmpty else { throw UsageError("notifications takes no positional argument") }
        var since: Int64 = 0
        if let s = args.value("since") {
            guard let n = Int64(s), n >= 0 else { throw UsageError("--since needs a notification sequence number (0 or more), found '\(s)'") }
            since = n
        }
        let format = try QueryCommand.lineFormat(args)
        let env = try MigrateCommand.environment(args)
        let store = try QueryCommand.readStore(args)
        try io.streaming { sink in try NotificationLog.read(store: store, environment: env, since: since, format: format, sink: sink) }
        return .success
    }
}
