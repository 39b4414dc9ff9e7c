import CKSchema

extension NotificationsCommand {
    /// notifications' options: the sequence number to read after.
    struct Options: ParsableOptions {
        static let sinceOption = Option.number("since", help: "only notifications with a sequence number above N", valid: { (n: Int64) in n >= 0 },
                                               message: { "--since needs a notification sequence number (0 or more), found '\($0)'" }).or(Int64(0))
        static let specs = [sinceOption.spec] + RuntimeOptions.specs
        var since: Int64
        var runtime: RuntimeOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            guard arguments.positionals.isEmpty else { throw UsageError("notifications takes no positional argument") }
            since = try arguments.value(Self.sinceOption)
            runtime = try RuntimeOptions(arguments)
        }
    }
}
