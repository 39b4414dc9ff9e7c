import CKSchema

extension ChangesCommand {
    /// changes' options: the zone (required) and the token.
    struct Options: ParsableOptions {
        static let zoneOption = Option.text("zone", help: "the custom zone (required)", valueName: "Z")
        static let sinceOption = Option.text("since", help: "the serverChangeToken of an earlier run", valueName: "TOKEN")
        static let specs = [zoneOption.spec, sinceOption.spec] + RuntimeOptions.specs
        var zone: String
        var since: String?
        var runtime: RuntimeOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            guard arguments.positionals.isEmpty else { throw UsageError("changes takes no positional argument; name the zone with --zone") }
            guard let zone = try arguments.value(Self.zoneOption) else { throw UsageError("changes needs --zone Z") }
            self.zone = zone
            since = try arguments.value(Self.sinceOption)
            runtime = try RuntimeOptions(arguments)
        }
    }
}
