import Foundation
import CKSchemaConfig

/// `ckschema pull`: gets an environment's live schema from CloudKit through Apple's cktool
/// (`cktool export-schema`), checks that it parses, and writes it verbatim as `.ckdb`.
///
/// The export goes to a temporary file beside the destination and is renamed over it only
/// once it parses, so the destination is either the old file or the whole new export,
/// never half of one (rename(2) within one folder is atomic).
public enum SchemaPuller {
    /// How cktool is run.
    public enum Tool: Sendable, Equatable {
        /// `xcrun cktool ...`, found on PATH (macOS with Xcode 13 or later).
        case xcrun
        /// An executable that takes cktool's arguments (`--cktool PATH`, `CKSCHEMA_CKTOOL`).
        case executable(String)
    }

    /// What to pull and where to write it.
    public struct Request: Sendable {
        public var team: String
        public var container: String
        public var environment: Environment
        public var destination: String
        public var tool: Tool
        /// Seconds cktool may run before it is stopped (`--timeout`).
        public var timeout: Double

        public init(team: String, container: String, environment: Environment, destination: String, tool: Tool,
                    timeout: Double = SchemaPuller.defaultTimeout) {
            self.team = team
            self.container = container
            self.environment = environment
            self.destination = destination
            self.tool = tool
            self.timeout = timeout
        }
    }

    /// What was written.
    public struct Result: Sendable {
        public var destination: String
        public var recordTypes: Int
        public var bytes: Int
        /// False when the export is byte for byte the file that was there.
        public var changed: Bool
    }

    /// The label diagnostics of a rejected export carry: the export itself is deleted.
    public static let exportLabel = "<cktool export-schema>"

    /// Seconds cktool may run by default: an export takes seconds; a cktool waiting on a
    /// network that does not answer is stopped after this.
    public static let defaultTimeout: Double = 300

    /// Bytes of cktool's own messages kept (it writes a line or two; the export goes to a file).
    static let messageLimit = 1 << 20

    /// The fix every cktool failure names: cktool needs a management token.
    public static let tokenFix = "save a management token with 'xcrun cktool save-token --type management' (create it in CloudKit Console), then pull again"

    /// Runs cktool, checks the export, and replaces the destination with it.
    public static func pull(_ r: Request) throws(InputError) -> Result {
        if let problem = ContainerIdentifier.problem(r.container) {
            throw InputError(Diagnostic(rule: PullRules.containerIdentifier, "'\(escaped(r.container))' is not a container identifier: \(problem)", at: nil,
                                    fix: "pass --container-id iCloud.com.example.App, or set 'container:' in ckschema.yaml"))
        }
        // Checked before it reaches cktool's command line: '--output-file=...' given as a team
        // arrived there verbatim.
        if !isTeamIdentifier(r.team) {
            throw InputError(Diagnostic(rule: PullRules.teamIdentifier, "'\(escaped(String(r.team.prefix(64))))' is not an Apple developer team identifier (10 capital letters and digits)", at: nil,
                                        fix: "pass --team-id with the team ID shown under Membership in your Apple developer account, or set 'team:' in ckschema.yaml"))
        }
        let (executable, prefix) = try resolve(r.tool)
        let fm = FileManager.default
        let folder = (r.destination as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        if !folder.isEmpty, !(fm.fileExists(atPath: folder, isDirectory: &isDir) && isDir.boolValue) {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "the folder of '\(r.destination)' does not exist", at: nil,
                                    fix: "create '\(folder)', or pass -o with a path in an existing folder"))
        }
        let base = (r.destination as NSString).lastPathComponent
        let temp = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(".\(base).pull-\(UUID().uuidString).ckdb")
        defer { try? fm.removeItem(atPath: temp) }
        let arguments = prefix + [
            "export-schema", "--team-id", r.team, "--container-id", r.container,
            "--environment", r.environment.rawValue, "--output-file", temp,
        ]
        try run(executable, arguments, timeout: r.timeout, export: temp)
        // Checked again once cktool is done: the size is watched while it runs, every 0.2 s.
        if let size = (try? fm.attributesOfItem(atPath: temp))?[.size] as? Int, size > InputFile.schemaLimit {
            throw exportTooLarge()
        }
        guard let data = fm.contents(atPath: temp), !data.isEmpty else {
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed, "cktool export-schema exited 0 but wrote no schema", at: nil, fix: tokenFix))
        }
        let schema: Schema
        do { schema = try CKDBSource.parse(data, file: exportLabel) } catch {
            throw InputError([Diagnostic(rule: PullRules.exportMalformed,
                                     "the schema cktool exported does not parse; nothing was written and '\(r.destination)' is unchanged",
                                     at: nil, fix: "run 'xcrun cktool export-schema' by hand and report the file; the errors follow")] + error.diagnostics)
        }
        let changed = fm.contents(atPath: r.destination) != data
        if changed {
            guard rename(temp, r.destination) == 0 else {
                let reason = String(cString: strerror(errno))
                throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot write '\(r.destination)': \(reason)", at: nil,
                                        fix: "check that the file and its folder are writable"))
            }
        }
        return Result(destination: r.destination, recordTypes: schema.recordTypes.count, bytes: data.count, changed: changed)
    }

    /// The executable and the arguments before cktool's own (`cktool` for xcrun).
    static func resolve(_ tool: Tool) throws(InputError) -> (String, [String]) {
        switch tool {
        case .executable(let path):
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw InputError(Diagnostic(rule: PullRules.cktoolMissing, "'\(escaped(path))' is not an executable cktool", at: nil,
                                        fix: "pass --cktool with the path of cktool (or of a script taking its arguments), or unset CKSCHEMA_CKTOOL"))
            }
            return (path, [])
        case .xcrun:
            let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            guard let xcrun = paths.map({ ($0 as NSString).appendingPathComponent("xcrun") }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw InputError(Diagnostic(rule: PullRules.cktoolMissing, "cktool is not available: 'xcrun' is not on PATH (cktool ships with Xcode 13 or later, on macOS)", at: nil,
                                        fix: "on macOS install Xcode and " + tokenFix + "; elsewhere pull on a Mac, or pass --cktool PATH"))
            }
            return (xcrun, ["cktool"])
        }
    }

    /// True for an Apple developer team identifier: 10 characters, A-Z and 0-9 (ABCDE12345).
    public static func isTeamIdentifier(_ s: String) -> Bool {
        s.utf8.count == 10 && s.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// Runs cktool export-schema through the bounded runner; throws CK802 unless it exits 0.
    static func run(_ executable: String, _ arguments: [String], timeout: Double, export: String) throws(InputError) {
        let outcome: BoundedProcess.Outcome
        do {
            outcome = try BoundedProcess.run(executable, arguments, limits: .init(seconds: timeout, output: messageLimit, file: (export, InputFile.schemaLimit)),
                                             removeOnTermination: [export])
        } catch {
            throw InputError(Diagnostic(rule: PullRules.cktoolMissing, "cannot run '\(escaped(executable))': \(error.reason)", at: nil,
                                    fix: "pass --cktool with the path of cktool, or unset CKSCHEMA_CKTOOL"))
        }
        let said = String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let quoted = said.isEmpty ? "" : ": " + escaped(String(said.prefix(4000)))
        let fix = "if cktool has no token, " + tokenFix + "; check the team (--team-id) and container (--container-id)"
        switch outcome.ending {
        case .exited(0): return
        case .exited(let status):
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed, "cktool export-schema failed (exit \(status))" + quoted, at: nil, fix: fix))
        case .signalled(let signal):
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed, "cktool export-schema was ended by signal \(signal)" + quoted, at: nil, fix: fix))
        case .timedOut:
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed,
                                    "cktool export-schema did not finish within \(String(format: "%g", timeout)) s and was stopped; nothing was written", at: nil,
                                    fix: "check the network and cktool's token, or pass a longer --timeout"))
        case .outputTooLarge:
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed,
                                    "cktool export-schema wrote more than \(TextBytes.formatBytes(messageLimit)) of messages and was stopped; nothing was written", at: nil,
                                    fix: "run 'xcrun cktool export-schema' by hand to see what it says"))
        case .fileTooLarge:
            throw exportTooLarge()
        }
    }

    static func exportTooLarge() -> InputError {
        InputError(Diagnostic(rule: PullRules.cktoolFailed,
                              "cktool's export grew past \(TextBytes.formatBytes(InputFile.schemaLimit)), the limit for a schema file; it was stopped and nothing was written", at: nil,
                              fix: "run 'xcrun cktool export-schema' by hand and check the file it writes"))
    }

    /// Another tool's output in a one-line message.
    static func escaped(_ s: String) -> String { ControlCharacters.escaped(s, newline: " / ") }
}
