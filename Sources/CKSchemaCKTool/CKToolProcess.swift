import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// The process runner behind `CKToolSession`: `BoundedProcess` (bounded time, output and
/// export size; the child's group killed on timeout and when ckschema is terminated), with
/// the call's environment added to ckschema's own.
public enum CKToolProcess {
    /// Runs the call; throws CK801 when it cannot start and CK802 when it is stopped
    /// (timeout, too much output, an export too large) or ended by a signal.
    @Sendable public static func run(_ call: CKToolCall) throws(InputError) -> CKToolOutcome {
        let outcome: BoundedProcess.Outcome
        do {
            outcome = try BoundedProcess.run(call.executable, call.arguments,
                                             limits: .init(seconds: call.seconds, output: SchemaPuller.messageLimit,
                                                           file: call.file.map { ($0, InputFile.schemaLimit) }),
                                             removeOnTermination: call.file.map { [$0] } ?? [], environment: call.environment)
        } catch {
            throw InputError(Diagnostic(rule: PullRules.cktoolMissing, "cannot run '\(SchemaPuller.escaped(call.executable))': \(error.reason)", at: nil,
                                        fix: "pass --cktool with the path of cktool, or unset CKSCHEMA_CKTOOL"))
        }
        let output = String(decoding: outcome.output, as: UTF8.self)
        let command = "cktool \(call.subcommand)"
        switch outcome.ending {
        case .exited(let status): return CKToolOutcome(status: status, output: output)
        case .signalled(let signal):
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed, "\(command) was ended by signal \(signal)", at: nil,
                                        fix: "run 'xcrun \(command)' by hand to see what it does"))
        case .timedOut:
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed,
                                        "\(command) did not finish within \(String(format: "%g", call.seconds)) s and was stopped", at: nil,
                                        fix: "check the network and cktool's token, or pass a longer --timeout"))
        case .outputTooLarge:
            throw InputError(Diagnostic(rule: PullRules.cktoolFailed,
                                        "\(command) wrote more than \(TextBytes.formatBytes(SchemaPuller.messageLimit)) of messages and was stopped", at: nil,
                                        fix: "run 'xcrun \(command)' by hand to see what it says"))
        case .fileTooLarge:
            throw SchemaPuller.exportTooLarge()
        }
    }
}
