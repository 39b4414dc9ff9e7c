import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaDiagnostics

/// Issue 35 point 10 (the rest): a read that fails says why in its own words, and every
/// quoted text of every message is clipped.
@Suite struct InputFileReadTests {
    static func message(_ path: String) -> String? {
        do { _ = try InputFile.read(path: path); return nil } catch { return error.diagnostics.first?.message }
    }

    // A FIFO, a device, a missing file, a folder and a file this user may not read each get
    // their own words; the FIFO is not opened for a blocking read (no writer: it hung).
    @Test func eachWayAReadFailsHasItsOwnWords() throws {
        let dir = try makeTempDir("ckschema-read")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe.yaml"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(Self.message(fifo) == "'\(fifo)' is a FIFO (a named pipe), not a file; ckschema reads its inputs whole from files")
        #expect(Self.message("/dev/null") == "'/dev/null' is a device, not a file; ckschema reads its inputs from files")
        #expect(Self.message(dir + "/gone.yaml") == "no such file '\(dir)/gone.yaml'")
        #expect(Self.message(dir) == "'\(dir)' is a folder where a file was expected")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/big.yaml"))
        do {
            _ = try InputFile.read(path: dir + "/big.yaml", limit: 0)
            Issue.record("a file over the limit read")
        } catch {
            #expect(error.diagnostics.first?.message == "file is 1 bytes; the limit for this kind of file is 0 bytes")
        }
        #expect(try InputFile.read(path: dir + "/big.yaml") == Data("x".utf8))
        // Through the binary: lint of the FIFO ends at once, exit 2, CK001.
        let r = try runCLI(["lint", fifo])
        #expect(r.code == 2)
        #expect(r.stderr == """
            \(fifo):1:1: error: '\(fifo)' is a FIFO (a named pipe), not a file; ckschema reads its inputs whole from files [CK001]
            \(fifo):1:1: note: save the input to a file and give its path

            """)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads a mode-000 file"))
    func aFileThisUserMayNotReadSaysSo() throws {
        let dir = try makeTempDir("ckschema-read")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/locked.yaml"))
        chmod(dir + "/locked.yaml", 0)
        #expect(Self.message(dir + "/locked.yaml") == "cannot read '\(dir)/locked.yaml': this user may not read it (Permission denied)")
    }

    /// Every message's quotes are clipped at `Diagnostic.messageQuoteLimit`, an apostrophe in a
    /// word opens none, and a short message is untouched.
    @Test func everyQuoteOfEveryMessageIsClipped() {
        let long = String(repeating: "x", count: 100_000)
        let d = Diagnostic(rule: InputRules.invalidValue, "the file's field 'f' has the type '\(long)'; see 'a'", at: nil, fix: "use '\(long)'")
        #expect(d.message == "the file's field 'f' has the type '\(String(repeating: "x", count: 300))…'; see 'a'")
        #expect(d.fix == "use '\(String(repeating: "x", count: 300))…'")
        let name = String(repeating: "n", count: 255)
        #expect(Diagnostic(rule: InputRules.invalidValue, "'\(name)' is long", at: nil).message == "'\(name)' is long")
        #expect(Diagnostic.clippingQuotes("unclosed '\(long)") == "unclosed '\(String(repeating: "x", count: 300))…")
    }

    // Through the binary: a YAML value of 100,000 characters is quoted clipped.
    @Test func aHugeYAMLValueIsQuotedClipped() throws {
        let dir = try makeTempDir("ckschema-read")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/s.yaml"
        try Data("ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      title: \(String(repeating: "q", count: 100_000))\n".utf8).write(to: URL(fileURLWithPath: file))
        let r = try runCLI(["lint", file])
        #expect(r.code == 2)
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0.utf8.count < 1_000 }, "\(r.stderr.prefix(1_000))")
        #expect(r.stderr.contains(String(repeating: "q", count: 300) + "…"), "\(r.stderr.prefix(1_000))")
    }
}
