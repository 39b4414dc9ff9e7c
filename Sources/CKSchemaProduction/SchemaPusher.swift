import Foundation
import CKSchemaCKDB
import CKSchemaCKTool
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaModel

/// `ckschema push`: sends the development schema to the container's development
/// environment through cktool, in an order that touches CloudKit last:
///
/// 1. lint and the production gate (`Promoter.check` against the committed production
///    schema): a schema production would refuse later is refused now, and cktool never runs;
/// 2. the `.ckdb` export (`CKDBExporter`), into a private temporary folder;
/// 3. `cktool validate-schema` (the server's dry run); a refusal is located in the source;
/// 4. with `dryRun`, stop; else `cktool export-schema --environment development` and the
///    diff from what development holds to what is pushed, which `confirm` is shown;
/// 5. `cktool import-schema`, which replaces the whole development schema.
///
/// Nothing in the repository is written: a failed push leaves every file as it was.
public enum SchemaPusher {
    /// What to push and how.
    public struct Request: Sendable {
        public var development: Schema
        public var production: Schema
        public var lint: RuleSettings
        public var promote: RuleSettings
        /// nil for `--offline`: every local step, no cktool.
        public var session: CKToolSession?
        public var dryRun: Bool

        public init(development: Schema, production: Schema, lint: RuleSettings = RuleSettings(),
                    promote: RuleSettings = RuleSettings(), session: CKToolSession?, dryRun: Bool) {
            self.development = development
            self.production = production
            self.lint = lint
            self.promote = promote
            self.session = session
            self.dryRun = dryRun
        }
    }

    /// Where a push stopped.
    /// The raw value is the stage's name in `push`'s JSON and SARIF reports (docs/output.md).
    public enum Stage: String, Sendable, Equatable {
        /// Lint or the production gate refused the schema; cktool was not run.
        case gateRefused
        /// cktool validate-schema or import-schema refused the schema.
        case serverRefused
        /// `--offline`: the local steps passed; cktool was not run.
        case checkedOffline
        /// `--dry-run`: the server validated the schema; nothing was imported.
        case validated
        /// Development already holds exactly this schema; nothing was imported.
        case upToDate
        /// The person asked said no; nothing was imported.
        case declined
        /// import-schema succeeded.
        case imported
    }

    /// What a push did.
    public struct Result: Sendable {
        public var stage: Stage
        /// The gate's or the server's findings (`gateRefused`, `serverRefused`).
        public var findings: [Diagnostic] = []
        /// What the `.ckdb` export could not say (zones, queries, ...), as warnings and notes.
        public var exportNotes: [Diagnostic] = []
        /// Development as it was, to what was pushed (after the pull of development).
        public var changes: SchemaDiff?
        /// The size of the `.ckdb` text pushed.
        public var bytes: Int = 0

        /// True when the push found problems (exit 1).
        public var refused: Bool { stage == .gateRefused || stage == .serverRefused }
    }

    /// The cktool subcommands push runs, in order.
    public static let validateCommand = "validate-schema", importCommand = "import-schema"

    /// Runs the push. `confirm` is shown the changes before the import and says whether to go on.
    public static func push(_ r: Request, confirm: (SchemaDiff) -> Bool) throws(InputError) -> Result {
        let gate = Promoter.check(from: r.production, to: r.development, lint: r.lint, promote: r.promote, hashing: false)
        if gate.fails(on: .forbidden) { return Result(stage: .gateRefused, findings: gate.diagnostics(minimum: .forbidden)) }

        let (text, notes) = CKDBExporter.export(r.development)
        var result = Result(stage: .checkedOffline, exportNotes: notes, bytes: text.utf8.count)
        guard let session = r.session else { return result }
        try session.checkReady()

        let fm = FileManager.default
        let folder = try CKToolSession.privateFolder("push")
        defer { try? fm.removeItem(atPath: folder) }
        let file = (folder as NSString).appendingPathComponent("development.ckdb")
        guard fm.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot write the export to '\(folder)'", at: nil, fix: "check TMPDIR"))
        }
        let map = ExportLineMap(source: r.development, exportText: text)
        let arguments = ["--environment", Environment.development.rawValue, "--file", file]

        let validation = try session.run(validateCommand, arguments)
        if let refusal = try refusal(validateCommand, validation, session: session, map: map) {
            result.stage = .serverRefused
            result.findings = [refusal]
            return result
        }
        if r.dryRun { result.stage = .validated; return result }

        let live = try session.export(environment: .development).schema
        let pushed = (try? CKDBSource.parse(Data(text.utf8), file: ExportLineMap.label)) ?? CKDBExporter.cktoolForm(r.development)
        let changes = SchemaDiff.compute(from: live, to: pushed)
        result.changes = changes
        if changes.changes.isEmpty { result.stage = .upToDate; return result }
        guard confirm(changes) else { result.stage = .declined; return result }

        let imported = try session.run(importCommand, arguments)
        if let refusal = try refusal(importCommand, imported, session: session, map: map) {
            result.stage = .serverRefused
            result.findings = [refusal]
            return result
        }
        result.stage = .imported
        return result
    }

    /// nil when cktool accepted the schema; a CK810 diagnostic at the source line when it
    /// refused it; throws CK802 when cktool failed otherwise (no token, no network, garbage).
    static func refusal(_ subcommand: String, _ outcome: CKToolOutcome, session: CKToolSession, map: ExportLineMap) throws(InputError) -> Diagnostic? {
        let said = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = said.contains("validation failed")
        if outcome.status == 0 && !refused { return nil }
        guard refused else { throw session.failure(subcommand, outcome) }
        let quoted = SchemaPuller.escaped(String(said.prefix(4000)))
        guard let (line, column) = ExportLineMap.position(in: said) else {
            return Diagnostic(rule: PullRules.serverRefused, "CloudKit refused the schema (cktool \(subcommand)): \(quoted)", at: nil,
                              fix: "correct the schema; 'ckschema export --format ckdb' shows the text cktool was given")
        }
        let at = map.location(line: line, column: column)
        return Diagnostic(rule: PullRules.serverRefused,
                          "CloudKit refused the schema (cktool \(subcommand), line \(line) column \(column) of the .ckdb export): \(quoted)", at: at,
                          fix: "correct this element; 'ckschema export --format ckdb' shows the text cktool was given")
    }
}
