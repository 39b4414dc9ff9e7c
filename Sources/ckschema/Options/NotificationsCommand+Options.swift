import CKSchema

extension NotificationsCommand {
    /// notifications' options: the sequence number to read after.
    struct Options: ParsableOptions {
        @Opt(Option.number("since", help: "only notifications with a sequence number above N", valid: { (n: Int64) in n >= 0 },
                           message: { "--since needs a notification sequence number (0 or more), found '\($0)'" }).or(Int64(0))) var since: Int64
        @Group var runtime: RuntimeOptions
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            guard words.isEmpty else { throw UsageError("notifications takes no positional argument") }
        }
    }
}
