import Foundation
import CKSchemaCKDB
import CKSchemaDiagnostics
import CKSchemaModel

/// One run of cktool: the executable, its arguments, and what is added to its environment.
public struct CKToolCall: Sendable {
    /// The cktool subcommand (`export-schema`), for messages.
    public var subcommand: String
    public var executable: String
    public var arguments: [String]
    /// Variables added to ckschema's own environment for the child (the token goes here,
    /// never into `arguments`: a process listing shows arguments to every user).
    public var environment: [String: String]
    /// Seconds it may run before it is stopped.
    public var seconds: Double
    /// The file it writes (`--output-file`), watched against the schema size limit.
    public var file: String?

    public init(subcommand: String, executable: String, arguments: [String], environment: [String: String] = [:],
                seconds: Double = SchemaPuller.defaultTimeout, file: String? = nil) {
        self.subcommand = subcommand
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.seconds = seconds
        self.file = file
    }
}

/// What a run of cktool gave: its exit status and its output (both streams, bounded).
public struct CKToolOutcome: Sendable {
    public var status: Int32
    public var output: String

    public init(status: Int32, output: String) {
        self.status = status
        self.output = output
    }
}

/// How cktool is run: the one seam between the commands (`pull`, `push`, `reset`,
/// `verify`) and the process runner, so that tests and the runner can change apart.
public typealias CKToolRunner = @Sendable (CKToolCall) throws(InputError) -> CKToolOutcome

/// cktool for one container: the team, the container, the tool, the token and the runner.
/// Every subcommand goes through `run`, so the token reaches cktool in one way only: as
/// `CLOUDKIT_MANAGEMENT_TOKEN` in its environment, the variable cktool reads (Apple, cktool
/// man page: "-t/--token ... or the CLOUDKIT_MANAGEMENT_TOKEN environment variable").
public struct CKToolSession: Sendable {
    public var team: String
    public var container: String
    public var tool: SchemaPuller.Tool
    /// The management token, when one is given through ckschema's environment (`--token-env`);
    /// nil leaves cktool to use the one saved in the keychain.
    public var token: String?
    /// Seconds each cktool run may take (`--timeout`).
    public var timeout: Double
    public var runner: CKToolRunner

    /// The variable cktool reads a management token from.
    public static let tokenVariable = "CLOUDKIT_MANAGEMENT_TOKEN"

    public init(team: String, container: String, tool: SchemaPuller.Tool, token: String? = nil,
                timeout: Double = SchemaPuller.defaultTimeout, runner: @escaping CKToolRunner = CKToolProcess.run) {
        self.team = team
        self.container = container
        self.tool = tool
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.timeout = timeout
        self.runner = runner
    }

    /// Throws CK804 unless the container is an identifier CloudKit would accept.
    public func checkContainer() throws(InputError) {
        if let problem = ContainerIdentifier.problem(container) {
            throw InputError(Diagnostic(rule: PullRules.containerIdentifier, "'\(SchemaPuller.escaped(container))' is not a container identifier: \(problem)", at: nil,
                                        fix: "pass --container-id iCloud.com.example.App, or set 'container:' in ckschema.yaml"))
        }
        // Checked before it reaches cktool's command line: '--output-file=...' given as a team
        // arrived there verbatim (issue 24).
        if !SchemaPuller.isTeamIdentifier(team) {
            throw InputError(Diagnostic(rule: PullRules.teamIdentifier, "'\(SchemaPuller.escaped(String(team.prefix(64))))' is not an Apple developer team identifier (10 capital letters and digits)", at: nil,
                                        fix: "pass --team-id with the team ID shown under Membership in your Apple developer account, or set 'team:' in ckschema.yaml"))
        }
    }

    /// Throws CK804 or CK801 unless the container is valid and cktool can be run: for a
    /// command that says something before its first cktool call.
    public func checkReady() throws(InputError) {
        try checkContainer()
        _ = try SchemaPuller.resolve(tool)
    }

    /// Runs `cktool SUBCOMMAND --team-id T --container-id C ARGS...`; the output comes back
    /// with the token (should cktool ever print it) replaced by `<token>`.
    public func run(_ subcommand: String, _ arguments: [String], writing file: String? = nil) throws(InputError) -> CKToolOutcome {
        try checkContainer()
        let (executable, prefix) = try SchemaPuller.resolve(tool)
        let call = CKToolCall(subcommand: subcommand, executable: executable,
                              arguments: prefix + [subcommand, "--team-id", team, "--container-id", container] + arguments,
                              environment: token.map { [Self.tokenVariable: $0] } ?? [:], seconds: timeout, file: file)
        var outcome = try runner(call)
        outcome.output = redacted(outcome.output)
        return outcome
    }

    /// `text` with the token replaced in every form it can take (`TokenRedaction`: whole,
    /// JSON-escaped, URL-encoded, split across lines, or a prefix of 12 characters or more),
    /// so that no report carries it.
    public func redacted(_ text: String) -> String { TokenRedaction.redact(text, token: token) }

    /// The CK802 error for a cktool run that failed: the subcommand, the exit status and
    /// cktool's own words (escaped, at most 4,000 characters), with the fix that fits.
    public func failure(_ subcommand: String, _ outcome: CKToolOutcome) -> InputError {
        let said = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        // Apple: import-schema and validate-schema answer "endpoint not applicable in the
        // environment 'production'"; production changes only through the Console's deploy.
        let fix: String
        if said.contains("not applicable in the environment") {
            fix = "CloudKit changes a production schema only through CloudKit Console's 'Deploy Schema Changes'; push to development, then follow 'ckschema promote --format markdown'"
        } else {
            fix = "if cktool has no token, " + SchemaPuller.tokenFix + " (or set CLOUDKIT_MANAGEMENT_TOKEN, or name another variable with --token-env); check the team (--team-id) and container (--container-id)"
        }
        return InputError(Diagnostic(rule: PullRules.cktoolFailed,
                                     "cktool \(subcommand) failed (exit \(outcome.status))" + (said.isEmpty ? "" : ": " + SchemaPuller.escaped(String(said.prefix(4000)))),
                                     at: nil, fix: fix))
    }

    /// The environment's schema as cktool exports it: the bytes, parsed. The export goes
    /// to a private temporary folder that is removed before this returns.
    public func export(environment: Environment) throws(InputError) -> (data: Data, schema: Schema) {
        let folder = try Self.privateFolder("export")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = (folder as NSString).appendingPathComponent("export.ckdb")
        let data = try export(environment: environment, to: file)
        return (data, try Self.parseExport(data))
    }

    /// A new folder in `$TMPDIR` only this user can read (mode 0700), for the files cktool
    /// reads or writes; the caller removes it.
    package static func privateFolder(_ purpose: String) throws(InputError) -> String {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("ckschema-\(purpose)-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700]) } catch {
            throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot create a temporary folder in '\(NSTemporaryDirectory())'", at: nil, fix: "check TMPDIR"))
        }
        return folder
    }

    /// Runs `export-schema` into `file` and returns its bytes (not parsed).
    func export(environment: Environment, to file: String) throws(InputError) -> Data {
        let outcome = try run("export-schema", ["--environment", environment.rawValue, "--output-file", file], writing: file)
        guard outcome.status == 0 else { throw failure("export-schema", outcome) }
        // Checked again once cktool is done: the size is watched while it runs, every 0.2 s.
        if let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int, size > InputFile.schemaLimit {
            throw SchemaPuller.exportTooLarge()
        }
        guard let data = FileManager.default.contents(atPath: file), !data.isEmpty else {
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed, "cktool export-schema exited 0 but wrote no schema", at: nil, fix: SchemaPuller.tokenFix))
        }
        // A schema never holds the management token: an export that does (a cktool that wrote
        // its log or a request into the file) is refused whole, so `pull` and `verify --update`
        // never write a line that holds it, and no diagnostic quotes that line (issue 35).
        let holding = TokenRedaction.lines(in: String(decoding: data, as: UTF8.self), token: token)
        if !holding.isEmpty {
            let lines = holding.prefix(5).map(String.init).joined(separator: ", ") + (holding.count > 5 ? ", ..." : "")
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed,
                                        "cktool export-schema wrote the management token into the export (line\(holding.count == 1 ? "" : "s") \(lines)); it was deleted and nothing was written",
                                        at: nil, fix: "run 'xcrun cktool export-schema' by hand and check the file it writes: no cktool should write its token there"))
        }
        return data
    }

    /// An export parsed, or CK803 followed by the parser's own diagnostics.
    static func parseExport(_ data: Data) throws(InputError) -> Schema {
        do { return try CKDBSource.parse(data, file: SchemaPuller.exportLabel) } catch {
            throw InputError([Diagnostic(rule: PullRules.exportMalformed,
                                         "the schema cktool exported does not parse; nothing was written",
                                         at: nil, fix: "run 'xcrun cktool export-schema' by hand and report the file; the errors follow")] + error.diagnostics)
        }
    }
}
