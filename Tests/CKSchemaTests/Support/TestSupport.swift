import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck
@testable import CKSchemaCodegen

/// Paths the tests share: the repository root, its fixtures, the shared corpus.
enum Paths {
    /// The repository root, found from this file's place.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func fixture(_ relative: String) -> String { root + "/Tests/Fixtures/" + relative }

    /// `../shared/corpus/ckdb/` beside the repository.
    static let corpus: String = URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("shared/corpus/ckdb").path

    /// The built `ckschema` executable, next to the test bundle: the test target depends on the
    /// executable target, so it is built from the same sources before the tests run. There is
    /// no fallback to another build folder, where a stale binary could answer
    /// (`BinaryUnderTestTests` checks it is newer than every source).
    static let binary: String = {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["CKSCHEMA_BIN"] { candidates.append(env) }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("ckschema").path)
            dir.deleteLastPathComponent()
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()
}

/// What one run of the built binary gave.
struct CLIResult {
    var stdout: String
    var stderr: String
    var code: Int32
}

/// Runs the built `ckschema` with `arguments` in `cwd`, feeding `stdin`, and waits for it.
func runCLI(_ arguments: [String], cwd: String = Paths.root, stdin: String? = nil, environment: [String: String] = [:]) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.binary)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: cwd)
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe(), inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inp
    try process.run()
    if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
    try inp.fileHandleForWriting.close()
    // Read both pipes while the process runs, so a large output cannot block it.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CLIResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                     code: process.terminationStatus)
}

/// A fresh temporary folder, removed by the caller with `cleanup`.
func makeTempDir(_ name: String = "ckschema-test") throws -> String {
    let path = NSTemporaryDirectory() + name + "-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func read(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
    return String(decoding: data, as: UTF8.self)
}

/// Diagnostics with any code, for the tests of renderers and plans: rule code reports
/// through `Diagnostic(rule:)`.
extension Diagnostic {
    static func error(_ code: String, _ message: String, at location: CKSchema.SourceLocation?, fix: String? = nil, fixIt: FixIt? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: .error, location: location, message: message, fix: fix, fixIt: fixIt)
    }

    static func warning(_ code: String, _ message: String, at location: CKSchema.SourceLocation?, fix: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: .warning, location: location, message: message, fix: fix)
    }
}

/// Whether golden tests write what they got into their `.expected` files instead of comparing
/// (`CKSCHEMA_UPDATE_EXPECTED=1`, which `Tests/update-expected.sh` sets): a change of output
/// format is then one rerun and a diff to review, not hand edits.
let updatingExpected = ProcessInfo.processInfo.environment["CKSCHEMA_UPDATE_EXPECTED"] == "1"

/// Checks `actual` against the `.expected` fixture at `path` (absolute, or relative to the
/// package root); when `updatingExpected`, writes `actual` there first.
func expectMatchesFixture(_ actual: String, _ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let full = path.hasPrefix("/") ? path : Paths.root + "/" + path
    if updatingExpected { try Data(actual.utf8).write(to: URL(fileURLWithPath: full)) }
    #expect(actual == (try read(full)), "\(path): run Tests/update-expected.sh to see the difference in git", sourceLocation: sourceLocation)
}
