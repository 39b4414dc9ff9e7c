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

        public init(team: String, container: String, environment: Environment, destination: String, tool: Tool) {
            self.team = team
            self.container = container
            self.environment = environment
            self.destination = destination
            self.tool = tool
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

    /// The fix every cktool failure names: cktool needs a management token.
    public static let tokenFix = "save a management token with 'xcrun cktool save-token --type management' (create it in CloudKit Console), then pull again"

    /// Runs cktool, checks the export, and replaces the destination with it.
    public static func pull(_ r: Request) throws(InputError) -> Result {
        if let problem = ContainerIdentifier.problem(r.container) {
            throw InputError(Diagnostic(rule: PullRules.containerIdentifier, "'\(escaped(r.container))' is not a container identifier: \(problem)", at: nil,
                                    fix: "pass --container-id iCloud.com.example.App, or set 'container:' in ckschema.yaml"))
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
        let log = (NSTemporaryDirectory() as NSString).appendingPathComponent("ckschema-pull-\(UUID().uuidString).log")
        defer {
            try? fm.removeItem(atPath: temp)
            try? fm.removeItem(atPath: log)
        }
        let arguments = prefix + [
            "export-schema", "--team-id", r.team, "--container-id", r.container,
            "--environment", r.environment.rawValue, "--output-file", temp,
        ]
        let status = try run(executable, arguments, log: log)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let said = output.trimmingCharacters(in: .whitespacesAndNewlines)
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed,
                                    "cktool export-schema failed (exit \(status))" + (said.isEmpty ? "" : ": " + escaped(String(said.prefix(4000)))),
                                    at: nil, fix: "if cktool has no token, " + tokenFix + "; check the team (--team-id) and container (--container-id)"))
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

    /// Runs the tool with its output (both streams) going to `log`; returns its exit status.
    static func run(_ executable: String, _ arguments: [String], log: String) throws(InputError) -> Int32 {
        guard FileManager.default.createFile(atPath: log, contents: nil), let handle = FileHandle(forWritingAtPath: log) else {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "cannot create a temporary file in '\(NSTemporaryDirectory())'", at: nil, fix: "check TMPDIR"))
        }
        defer { try? handle.close() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.standardOutput = handle
        p.standardError = handle
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            throw InputError(Diagnostic(rule: PullRules.cktoolMissing, "cannot run '\(escaped(executable))': \(error.localizedDescription)", at: nil,
                                    fix: "pass --cktool with the path of cktool, or unset CKSCHEMA_CKTOOL"))
        }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Another tool's output in a one-line message.
    static func escaped(_ s: String) -> String { ControlCharacters.escaped(s, newline: " / ") }
}
