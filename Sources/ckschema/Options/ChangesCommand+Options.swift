import CKSchema

extension ChangesCommand {
    /// changes' options: the zone (required) and the token.
    struct Options: ParsableOptions {
        @Opt(Option.text("zone", help: "the custom zone (required)", valueName: "Z").required().completing(.customZones)) var zoneName: String?
        @Opt(.text("since", help: "the serverChangeToken of an earlier run", valueName: "TOKEN")) var since: String?
        @Group var runtime: RuntimeOptions
        @Positionals() var words: [String]

        /// The zone, which `validate()` has checked is given.
        var zone: String { zoneName ?? "" }

        func validate() throws(UsageError) {
            guard words.isEmpty else { throw UsageError("changes takes no positional argument; name the zone with --zone") }
            guard zoneName != nil else { throw UsageError("changes needs --zone Z") }
        }
    }
}
