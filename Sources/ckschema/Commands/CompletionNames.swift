import CKSchema

/// What a completion offers for an option's value or a positional, read from the repository
/// when the user presses Tab: the development schema's record types or zones, or the
/// migrations folder's versions.
enum CompletedNames: String, CaseIterable, Sendable {
    case recordTypes = "types", zones, migrations
}

/// `ckschema completion names types|zones|migrations`: the names the completion scripts offer
/// for `--type`, `query TYPE`, `--zone` and `migrate apply --to`, one a line, from ckschema.yaml's
/// development schema and migrations folder (a migration as `VERSION<tab>FILE`, so fish shows the
/// file beside the number). The scripts call it and discard its errors.
enum CompletionNamesCommand: Subcommand {
    static let name = "names"
    static let summary = "the record types, zones or migration versions the scripts complete, from ckschema.yaml"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try options.configuration()
        guard let kind = CompletedNames(rawValue: options.kinds[0]) else { return .failure }
        switch kind {
        case .migrations:
            let folder = try MigrationFolder.load(path: Configuration.migrationsPath(nil, config: config))
            for m in folder.migrations { io.write("\(m.version)\t\(m.fileName)\n") }
        case .recordTypes, .zones:
            guard let path = config?.developmentSchema else {
                throw InputError(Diagnostic(rule: InputRules.config, "ckschema.yaml names no development schema, so there are no names to complete", at: nil,
                                            fix: "run it in a repository whose ckschema.yaml has `schemas: { development: ... }`"))
            }
            let schema = try SchemaSource.load(path: path, model: config?.model ?? ModelSelection())
            let names = kind == .zones ? schema.zones.map(\.name) + [Zone.defaultZoneName] : schema.recordTypes.map(\.name)
            for n in names { io.write(ControlCharacters.escaped(n) + "\n") }
        }
        return .success
    }

    struct Options: ParsableOptions {
        @Positionals(.one("KIND")) var kinds: [String]
        @Opt(CommonOptions.config) var configPath: String?

        func configuration() throws(InputError) -> Configuration? { try CommonOptions.configuration(configPath) }

        func validate() throws(UsageError) {
            let words = CompletedNames.allCases.map(\.rawValue)
            guard kinds.count == 1, words.contains(kinds[0]) else {
                throw UsageError("completion names takes one of \(UsageError.list(words))")
            }
        }
    }
}
