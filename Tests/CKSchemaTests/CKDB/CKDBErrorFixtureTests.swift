import Foundation
import Testing
import CKSchema

/// The text a user sees for each diagnostic (`path:line:col: error: message [CODE]`).
func renderCKDBDiagnostics(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map { d in
        let at = d.location.map { "\($0.file):\($0.line):\($0.column): " } ?? ""
        return "\(at)\(d.severity.rawValue): \(d.message) [\(d.code)]"
    }.joined(separator: "\n")
}

/// The bad inputs in Tests/Fixtures/ckdb/bad, each beside the exact diagnostics it must give.
let badFixtures: [String] = {
    let dir = CKDBPaths.fixtures.appendingPathComponent("bad").path
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
        .filter { $0.hasSuffix(".ckdb") }.sorted()
}()

@Suite struct CKDBErrorFixtureTests {
    @Test func thereAreFixtures() {
        #expect(badFixtures.count >= 15)
    }

    @Test(arguments: badFixtures)
    func diagnosticsMatchExpected(name: String) throws {
        let dir = CKDBPaths.fixtures.appendingPathComponent("bad")
        let data = try #require(FileManager.default.contents(atPath: dir.appendingPathComponent(name).path))
        let expectedPath = dir.appendingPathComponent(name.replacingOccurrences(of: ".ckdb", with: ".expected")).path
        var rendered = ""
        do {
            _ = try CKDBParser.parse(data, file: name)
            Issue.record("\(name) parsed without an error")
        } catch {
            #expect(!error.diagnostics.isEmpty)
            rendered = renderCKDBDiagnostics(error.diagnostics)
        }
        if ProcessInfo.processInfo.environment["CKDB_WRITE_ACTUAL"] != nil {
            try (rendered + "\n").write(toFile: expectedPath + ".actual", atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        #expect(rendered == expected.trimmingCharacters(in: .newlines))
    }
}
