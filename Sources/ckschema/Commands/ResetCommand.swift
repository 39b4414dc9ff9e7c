import CKSchema

/// `ckschema reset --env development --yes`: `cktool reset-schema` (`SchemaResetter.reset`).
enum ResetCommand: OptionsCommand {
    static let name = "reset"
    static let summary = "Reset CloudKit's development environment to production through cktool (deletes every development record)."
    static let help = """
        Runs 'xcrun cktool reset-schema --team-id T --container-id C': the development schema
        becomes production's and every record in development is deleted. It says so first,
        and without --yes does nothing (exit 2). Production cannot be reset (refused, exit 2).

        example:
          ckschema reset --env development --yes
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try CommonOptions.configuration(options.configPath)
        let session = try options.target.session(config: config)
        try session.checkReady()
        let warning = SchemaResetter.warning(container: session.container)
        guard options.yes else { throw UsageError(warning + "; pass --yes to reset") }
        io.error(warning + "\n")
        try SchemaResetter.reset(session)
        io.write("reset the development environment of \(ControlCharacters.escaped(session.container)) to production\n")
        return .success
    }
}
