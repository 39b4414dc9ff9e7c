import CKSchema

/// `ckschema notifications`: the notifications the store's subscriptions produced, oldest first.
enum NotificationsCommand: OptionsCommand {
    static let name = "notifications"
    static let summary = "Print the notifications the environment's subscriptions produced, oldest first."
    static let help = """
        Saving and deleting records through the store (records import, records delete, migrations'
        data steps) evaluates the environment's subscriptions. Each query notification is shaped
        like CKQueryNotification: {"sequence", "notificationType": "query", "subscriptionID",
        "queryNotificationReason": recordCreated|recordUpdated|recordDeleted, "recordID":
        {"recordName", "zoneName"}, "recordFields" (the desired keys only; never an encrypted
        value), "databaseScope"}; zone and database subscriptions give "recordZone" and
        "database" notifications. Pass the last sequence number as --since to read only newer ones.

        example:
          ckschema records import Schemas/fixtures/seed-trips.ndjson && ckschema notifications --format text
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let store = try options.runtime.readStore()
        try io.streaming { sink in
            try NotificationLog.read(store: store, environment: options.runtime.environment, since: options.since, format: options.runtime.format, sink: sink)
        }
        return .success
    }
}
