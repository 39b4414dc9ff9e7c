import Foundation
import Testing

/// Issue 31's precision suite: every app of `../shared/corpus/swift` scanned by the built
/// binary (against the schema it commits, else without one) reports exactly the findings its
/// file under Tests/Fixtures/precision lists, each read by hand against the source: a new
/// finding fails as a lost one does. docs/scan.md ("Precision, measured") sums them up.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: SwiftParserCheck.corpus), "../shared/corpus/swift is absent: the real-app precision suite is skipped"))
struct CorpusPrecisionTests {
    static let expectations = Paths.fixture("precision")

    /// One app: `cloudkit/OWNER__REPO` or `swiftdata/OWNER__REPO`.
    struct App: Sendable, CustomStringConvertible {
        var group: String
        var name: String
        var description: String { group + "/" + name }
    }

    /// Every app folder of the corpus, so a new app without an expectation file fails.
    static let apps: [App] = ["cloudkit", "swiftdata"].flatMap { group in
        let folder = SwiftParserCheck.corpus + "/" + group
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { App(group: group, name: $0) }
    }

    /// An expectation file: `schema: PATH` (relative to the app) or `schema: none`, then one
    /// `path:line: CODE` a line; `#` starts a comment.
    static func expectation(_ app: App) throws -> (schema: String?, findings: [String]) {
        let text = try String(contentsOfFile: expectations + "/\(app.group)/\(app.name).txt", encoding: .utf8)
        var schema: String??
        var findings: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = (raw.firstIndex(of: "#").map { raw[..<$0] } ?? raw).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("schema:") {
                let value = line.dropFirst("schema:".count).trimmingCharacters(in: .whitespaces)
                schema = .some(value == "none" ? nil : value)
            } else {
                findings.append(line.split(separator: " ").joined(separator: " "))
            }
        }
        return (try #require(schema, "\(app): the file names no 'schema:'"), findings.sorted())
    }

    /// `path:line: CODE` of each finding in the scan's text report.
    static func findings(_ stdout: String) -> [String] {
        var out: [String] = []
        for line in stdout.split(separator: "\n") {
            guard line.hasSuffix("]"), let open = line.lastIndex(of: "[") else { continue }
            let code = line[line.index(after: open)..<line.index(before: line.endIndex)]
            let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard code.hasPrefix("CK"), parts.count == 4, Int(parts[1]) != nil else { continue }
            var path = String(parts[0])
            if path.hasPrefix("./") { path.removeFirst(2) }
            out.append("\(path):\(parts[1]): \(code)")
        }
        return out.sorted()
    }

    @Test(arguments: apps)
    func theScanReportsExactlyTheFindingsReadByHand(_ app: App) throws {
        let folder = SwiftParserCheck.corpus + "/" + app.description
        let expected = try Self.expectation(app)
        let r = try runCLI(["scan", "."] + (expected.schema.map { ["--schema", $0] } ?? []), cwd: folder)
        #expect(r.code != 2, "\(app): \(r.stdout)\(r.stderr)")
        let found = Self.findings(r.stdout)
        let new = found.filter { !expected.findings.contains($0) }
        let lost = expected.findings.filter { !found.contains($0) }
        #expect(new.isEmpty, "\(app): findings no one checked (a false alarm, or add them to Tests/Fixtures/precision/\(app).txt after reading the source): \(new)")
        #expect(lost.isEmpty, "\(app): findings the scan no longer reports: \(lost)")
        // Exit 1 exactly when an error is found (warnings pass at the default --fail-on error).
        #expect(r.code == (r.stdout.contains(": error: ") ? 1 : 0), "\(app): \(r.stdout)")
    }

    /// The corpus has the apps the suite was written for: a file that lost its app fails too.
    @Test func everyExpectationFileHasItsApp() throws {
        for group in ["cloudkit", "swiftdata"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.expectations + "/" + group).filter { $0.hasSuffix(".txt") }
            for file in files {
                let app = String(file.dropLast(4))
                #expect(FileManager.default.fileExists(atPath: SwiftParserCheck.corpus + "/\(group)/\(app)"), "\(group)/\(file) names no app of the corpus")
            }
            #expect(files.count == Self.apps.filter { $0.group == group }.count)
        }
    }
}
