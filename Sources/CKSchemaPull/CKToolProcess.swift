import Foundation
import CKSchemaConfig

/// The process runner behind `CKToolSession`: runs cktool as a child process with its output
/// (both streams) in a temporary file, and ckschema's environment plus the call's own.
public enum CKToolProcess {
    /// Runs the call and waits for it; the temporary file is removed before this returns.
    @Sendable public static func run(_ call: CKToolCall) throws(InputError) -> CKToolOutcome {
        let log = (NSTemporaryDirectory() as NSString).appendingPathComponent("ckschema-cktool-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: log) else {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "cannot create a temporary file in '\(NSTemporaryDirectory())'", at: nil, fix: "check TMPDIR"))
        }
        defer {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: log)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: call.executable)
        p.arguments = call.arguments
        p.environment = ProcessInfo.processInfo.environment.merging(call.environment) { _, new in new }
        p.standardOutput = handle
        p.standardError = handle
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            throw InputError(Diagnostic(rule: PullRules.cktoolMissing, "cannot run '\(SchemaPuller.escaped(call.executable))': \(error.localizedDescription)", at: nil,
                                        fix: "pass --cktool with the path of cktool, or unset CKSCHEMA_CKTOOL"))
        }
        p.waitUntilExit()
        let data = FileManager.default.contents(atPath: log) ?? Data()
        return CKToolOutcome(status: p.terminationStatus, output: String(decoding: data.prefix(1 << 20), as: UTF8.self))
    }
}
