import CKSchema
import Foundation

/// `ckschema pull`: the live schema from CloudKit, through Apple's cktool, as `.ckdb`.
enum PullCommand: Command {
    static let name = "pull"
    static let summary = "Get an environment's live schema from CloudKit through cktool, as .ckdb."
    static let usage = "ckschema pull [--env production|development] [--team-id T] [--container-id C] [-o FILE] [--cktool PATH]"
    static let options = [
        OptionSpec(name: "env", short: nil, takesValue: true, help: "the CloudKit environment",
                   values: ["production", "development"], defaultValue: "production"),
        teamID,
        containerID,
        OptionSpec(name: "output", short: "o", takesValue: true, help: "write the schema to FILE",
                   valueName: "FILE", defaultValue: "the environment's schema in ckschema.yaml, when it is a .ckdb file", isPath: true),
        cktool,
        CommonOptions.config,
    ]
    static let teamID = OptionSpec(name: "team-id", short: nil, takesValue: true, help: "the Apple developer team",
                                   valueName: "T", defaultValue: "ckschema.yaml's team")
    static let containerID = OptionSpec(name: "container-id", short: nil, takesValue: true, help: "the iCloud container",
                                        valueName: "C", defaultValue: "ckschema.yaml's container, else the development schema's")
    static let cktool = OptionSpec(name: "cktool", short: nil, takesValue: true,
                                   help: "run this executable with cktool's arguments instead of 'xcrun cktool'",
                                   valueName: "PATH", defaultValue: "$CKSCHEMA_CKTOOL, else xcrun cktool", isPath: true)
    static let help = """
        Runs 'xcrun cktool export-schema --team-id T --container-id C --environment E
        --output-file TMP', checks that the export parses, and writes it verbatim. The file
        is replaced only once the whole export has parsed: a failed pull leaves the old
        file as it was. cktool needs a management token:
          xcrun cktool save-token --type management

        example:
          ckschema pull --team-id ABCDE12345
          ckschema pull --env development -o /tmp/dev.ckdb
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        if !args.positionals.isEmpty { throw UsageError("pull takes no positional arguments; name the file with -o") }
        let config = try CommonOptions.configuration(args)
        var environment = Environment.production
        if let e = args.value("env") {
            guard let v = Environment(rawValue: e) else { throw UsageError("'\(ControlCharacters.escaped(e))' is not an environment; use production or development") }
            environment = v
        }
        let result = try pull(environment: environment, args: args, config: config)
        io.write(message(result, environment: environment))
        return .success
    }

    /// Resolves team, container, destination and cktool, then pulls (also for `check --pull`).
    static func pull(environment: Environment, args: ParsedArguments, config: Configuration?) throws -> SchemaPuller.Result {
        guard let team = args.value("team-id") ?? config?.team else {
            throw UsageError("no team: pass --team-id T, or set 'team:' in ckschema.yaml (your Apple developer team identifier)")
        }
        guard let container = try args.value("container-id") ?? config?.container ?? developmentContainer(config) else {
            throw UsageError("no container: pass --container-id iCloud.com.example.App, or set 'container:' in ckschema.yaml or the development schema")
        }
        let configured = environment == .production ? config?.productionSchema : config?.developmentSchema
        guard let destination = args.value("output") ?? configured.flatMap({ $0.lowercased().hasSuffix(".ckdb") ? $0 : nil }) else {
            throw UsageError(configured == nil
                ? "no file to write: pass -o FILE, or name the \(environment.rawValue) schema in ckschema.yaml"
                : "the \(environment.rawValue) schema in ckschema.yaml is not a .ckdb file, and pull writes what CloudKit exports verbatim; pass -o FILE.ckdb, or configure schemas.\(environment.rawValue) as a .ckdb file")
        }
        let path = args.value("cktool") ?? ProcessInfo.processInfo.environment["CKSCHEMA_CKTOOL"].flatMap { $0.isEmpty ? nil : $0 }
        return try SchemaPuller.pull(.init(team: team, container: container, environment: environment, destination: destination,
                                           tool: path.map { .executable($0) } ?? .xcrun))
    }

    /// The development schema's `container:`, when ckschema.yaml names a readable one.
    static func developmentContainer(_ config: Configuration?) throws -> String? {
        guard let dev = config?.developmentSchema else { return nil }
        return try SchemaSource.load(path: dev).container
    }

    static func message(_ r: SchemaPuller.Result, environment: Environment) -> String {
        let what = "\(r.recordTypes) record type" + (r.recordTypes == 1 ? "" : "s")
        return r.changed
            ? "pulled the \(environment.rawValue) schema (\(what), \(r.bytes) bytes) to \(r.destination)\n"
            : "\(r.destination) is up to date with the \(environment.rawValue) schema (\(what))\n"
    }
}
