import CKSchema

/// `ckschema pull`: the live schema from CloudKit, through Apple's cktool, as `.ckdb`.
enum PullCommand: OptionsCommand {
    static let name = "pull"
    static let summary = "Get an environment's live schema from CloudKit through cktool, as .ckdb."
    static let help = """
        Runs 'xcrun cktool export-schema --team-id T --container-id C --environment E
        --output-file TMP', checks that the export parses, and writes it verbatim. The file
        is replaced only once the whole export has parsed: a failed pull leaves the old
        file as it was. cktool is stopped after --timeout seconds (default 300), when it
        writes more than 1 MB of messages or an export past 32 MB, and when ckschema is
        interrupted. cktool needs a management token:
          xcrun cktool save-token --type management

        example:
          ckschema pull --team-id ABCDE12345
          ckschema pull --env development -o /tmp/dev.ckdb
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try CommonOptions.configuration(options.configPath)
        let result = try options.target.pull(environment: options.environment, output: options.output, config: config)
        io.write(PullOptions.message(result, environment: options.environment))
        return .success
    }
}
