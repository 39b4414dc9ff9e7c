import CKSchema
import Foundation

/// What a completion offers for an option's value or a positional, read from the repository
/// when the user presses Tab: the development schema's record types or zones (every zone, or
/// the custom ones alone for `changes`, which the default zone cannot serve: CK730), or the
/// migrations folder's versions.
enum CompletedNames: String, CaseIterable, Sendable {
    case recordTypes = "types", zones, customZones = "custom-zones", migrations
}

/// `ckschema completion names types|zones|custom-zones|migrations`: the names the completion
/// scripts offer for `--type`, `query TYPE`, `--zone` and `migrate apply --to`, one a line, from
/// the ckschema.yaml found as every command finds it (this folder or one above): its development
/// schema's record types or zones (`_defaultZone` last, but for `custom-zones`), or its migrations folder's versions
/// (a migration as `VERSION<tab>FILE`, so fish shows the file beside the number; read from the
/// file names alone, so a migration that does not parse still completes).
///
/// A hidden subcommand of `completion` (help, the scripts and the man page do not list it):
/// only the scripts call it, when Tab is pressed. So it never fails where a script would show
/// an error in the middle of a command line: with no ckschema.yaml, or one (or a schema) that
/// does not read, it prints nothing and exits 0. And it prints only names made of ASCII
/// letters, digits, `_`, `-` and `.` (what CloudKit's record type and zone names and the
/// migration file names are made of), not starting with `-`: a name in a damaged or hostile
/// schema cannot bring a control character, a space, a quote or a `$(...)` to the shell.
enum CompletionNamesCommand: Subcommand {
    static let name = "names"
    static let summary = "the record types, zones or migration versions the completion scripts offer, from ckschema.yaml (for the scripts)"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        guard let kind = CompletedNames(rawValue: options.kinds[0]) else { return .failure }
        for line in names(kind) { io.write(line + "\n") }
        return .success
    }

    /// The lines `kind` prints; none when there is no readable ckschema.yaml or schema.
    static func names(_ kind: CompletedNames) -> [String] {
        guard let config = try? CommonOptions.configuration(nil) else { return [] }
        switch kind {
        case .migrations:
            let folder = Configuration.migrationsPath(nil, config: config)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
            return files.compactMap { file in Migration.parseFileName(file).map { (version: $0.version, file: file) } }
                .filter { isSafe($0.file) }
                .sorted { ($0.version, $0.file) < ($1.version, $1.file) }
                .map { "\($0.version)\t\($0.file)" }
        case .recordTypes, .zones, .customZones:
            guard let path = config.developmentSchema,
                  let schema = try? SchemaSource.load(path: path, model: config.model ?? ModelSelection()) else { return [] }
            let names = switch kind {
            case .zones: schema.zones.map(\.name) + [Zone.defaultZoneName]
            case .customZones: schema.zones.map(\.name)
            default: schema.recordTypes.map(\.name)
            }
            return names.filter(isSafe)
        }
    }

    /// A name a shell can take as one word without quoting: ASCII letters, digits, `_`, `-`
    /// and `.`, not starting with `-` (an option) or empty.
    static func isSafe(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "-") else { return false }
        return name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
        }
    }

    struct Options: ParsableOptions {
        @Positionals(.one("KIND")) var kinds: [String]

        func validate() throws(UsageError) {
            let words = CompletedNames.allCases.map(\.rawValue)
            guard kinds.count == 1, words.contains(kinds[0]) else {
                throw UsageError("completion names takes one of \(UsageError.list(words))")
            }
        }
    }
}
