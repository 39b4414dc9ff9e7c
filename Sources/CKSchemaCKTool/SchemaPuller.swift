import Foundation
import CKSchemaCKDB
import CKSchemaDiagnostics
import CKSchemaModel

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
        public var session: CKToolSession
        public var environment: Environment
        public var destination: String

        public init(session: CKToolSession, environment: Environment, destination: String) {
            self.session = session
            self.environment = environment
            self.destination = destination
        }

        public init(team: String, container: String, environment: Environment, destination: String, tool: Tool,
                    timeout: Double = SchemaPuller.defaultTimeout) {
            self.init(session: CKToolSession(team: team, container: container, tool: tool, timeout: timeout), environment: environment, destination: destination)
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
    public static let tokenFix = "save a management token with 'xcrun cktool save-token --type management' (create it in CloudKit Console), then run this again"

    /// Runs cktool, checks the export, and replaces the destination with it.
    public static func pull(_ r: Request) throws(InputError) -> Result {
        try r.session.checkContainer()
        _ = try resolve(r.session.tool)
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
        let data = try r.session.export(environment: r.environment, to: temp)
        let schema: Schema
        do { schema = try CKDBSource.parse(data, file: exportLabel) } catch {
            throw InputError([Diagnostic(rule: PullRules.exportMalformed,
                                     "the schema cktool exported does not parse; nothing was written and '\(r.destination)' is unchanged",
                                     at: nil, fix: "run 'xcrun cktool export-schema' by hand and report the file; the errors follow")] + error.diagnostics)
        }
        let changed = fm.contents(atPath: r.destination) != data
        if changed { try replace(r.destination, withFileAt: temp) }
        return Result(destination: r.destination, recordTypes: schema.recordTypes.count, bytes: data.count, changed: changed)
    }

    /// Renames `temp` over `destination` (atomic within one folder).
    static func replace(_ destination: String, withFileAt temp: String) throws(InputError) {
        guard rename(temp, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot write '\(destination)': \(reason)", at: nil,
                                    fix: "check that the file and its folder are writable"))
        }
    }

    /// Writes `data` to `destination` through a temporary file beside it, so that the file is
    /// either the old one or the whole new one (`verify --update`).
    public static func replace(_ destination: String, with data: Data) throws(InputError) {
        let folder = (destination as NSString).deletingLastPathComponent
        let temp = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(".\((destination as NSString).lastPathComponent).pull-\(UUID().uuidString).ckdb")
        defer { try? FileManager.default.removeItem(atPath: temp) }
        guard FileManager.default.createFile(atPath: temp, contents: data) else {
            throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot write '\(destination)': its folder is not writable", at: nil,
                                    fix: "check that the file and its folder are writable"))
        }
        try replace(destination, withFileAt: temp)
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
                                        fix: "on macOS install Xcode and " + tokenFix + "; elsewhere run this on a Mac, or pass --cktool PATH"))
            }
            return (xcrun, ["cktool"])
        }
    }

    static func exportTooLarge() -> InputError {
        InputError(Diagnostic(rule: PullRules.cktoolFailed,
                              "cktool's export grew past \(TextBytes.formatBytes(InputFile.schemaLimit)), the limit for a schema file; it was stopped and nothing was written", at: nil,
                              fix: "run 'xcrun cktool export-schema' by hand and check the file it writes"))
    }

    /// Another tool's output in a one-line message.
    package static func escaped(_ s: String) -> String { ControlCharacters.escaped(s, newline: " / ") }

    /// True for an Apple developer team identifier: 10 characters, A-Z and 0-9 (ABCDE12345).
    public static func isTeamIdentifier(_ s: String) -> Bool {
        s.utf8.count == 10 && s.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
