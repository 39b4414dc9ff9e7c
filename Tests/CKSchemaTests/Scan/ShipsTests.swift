import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaScan

/// What the app ships beyond its calls (issue 34): its entitlements and Info.plist (CK920-CK928),
/// the per-record errors its batch code swallows (CK930, CK931) and its CKSyncEngine code
/// (CK932-CK935). Each kind is an app folder, broken and fixed, run through the built binary.
@Suite struct ShipsTests {
    static let folder = Paths.fixture("scan/ships")
    static let kinds = ["container", "services", "environment", "push", "sharing", "batch", "engine"]

    @Test(arguments: kinds)
    func brokenAppIsReportedAtEachKey(kind: String) throws {
        let r = try runCLI(["scan", "\(kind)-bad", "--schema", "schema.yaml"], cwd: Self.folder)
        try expectMatchesFixture(r.stdout, Self.folder + "/\(kind)-bad.expected")
        let warningsOnly = ["push", "batch"].contains(kind)
        #expect(r.code == (warningsOnly ? 0 : 1), "\(r.stderr)")
    }

    @Test(arguments: kinds)
    func fixedAppIsClean(kind: String) throws {
        let r = try runCLI(["scan", "\(kind)-good", "--schema", "schema.yaml"], cwd: Self.folder)
        #expect(r.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n")
        #expect(r.code == 0, "\(r.stderr)")
    }

    /// A DOCTYPE that declares entities, an unclosed array, a binary list whose array holds
    /// itself: each a located CK920 warning, never a crash, and the other checks go on.
    @Test func untrustedListsAreLocatedSkips() throws {
        let r = try runCLI(["scan", "unreadable", "--schema", "schema.yaml"], cwd: Self.folder)
        try expectMatchesFixture(r.stdout, Self.folder + "/unreadable.expected")
        #expect(r.code == 0)
    }

    /// The rest of issue 34's bad input, through the binary: a binary list whose offset table
    /// points out of the file, an entity reference the reader does not expand, and a 1 GB file
    /// (sparse, made here: refused by its size before a byte is read). Each is a located CK920
    /// warning, exit 0, bounded memory; the fixture's lists seed the `FuzzPlist` fuzz target.
    @Test func offsetsEntitiesAndAHugeFileAreLocatedSkips() throws {
        let dir = try makeTempDir("ckschema-ships-hostile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.folder + "/hostile", toPath: dir + "/hostile")
        try FileManager.default.copyItem(atPath: Self.folder + "/schema.yaml", toPath: dir + "/schema.yaml")
        let huge = dir + "/hostile/Huge.entitlements"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let r = try runCLI(["scan", "hostile", "--schema", "schema.yaml"], cwd: dir)
        try expectMatchesFixture(r.stdout, Self.folder + "/hostile.expected")
        #expect(r.code == 0, "\(r.stderr)")
    }

    @Test func theReaderKeepsEachKeysLine() throws {
        let xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <array>\n    <string>x &amp; y&#x21;</string>\n  </array>\n  <key>b</key><true/>\n</dict>\n</plist>\n"
        let root = try PropertyList.parse(Data(xml.utf8)).get()
        let a = try #require(root.entry("a"))
        #expect(a.line == 4 && a.column == 3)
        #expect(a.value.strings == ["x & y!"])
        #expect(root.entry("b")?.line == 8)
        #expect(root.entry("b")?.value.value == .bool(true))
    }

    @Test func hostileListsFailWithAPlace() throws {
        let cases: [(String, String)] = [
            ("<!DOCTYPE plist [<!ENTITY e \"x\">]><plist><dict/></plist>", "entities"),
            ("<plist><dict><key>a</key><string>&e;</string></dict></plist>", "is not expanded"),
            ("<plist><dict><key>a</key>", "the input ends"),
            (String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100), "nest more than 64"),
            ("<plist><dict><key>a</key><string>&#x110000;</string></dict></plist>", "is no character"),
            ("<plist><dict><string>a</string></dict></plist>", "where a <key> was expected"),
        ]
        for (text, message) in cases {
            guard case .failure(let f) = PropertyList.parse(Data(text.utf8)) else { Issue.record("read: \(text)"); continue }
            #expect(f.message.contains(message), "\(f.message)")
            #expect(f.line >= 1 && f.column >= 1)
        }
        // Binary: a truncated trailer, offsets out of the file, a huge object count.
        var binary = Array("bplist00".utf8) + [0xD0] + [UInt8](repeating: 0, count: 32)
        binary[binary.count - 25] = 1   // offset size
        binary[binary.count - 26] = 1
        for bytes in [Array("bplist00".utf8), binary, Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 40)] {
            guard case .failure(let f) = PropertyList.parse(Data(bytes)) else { Issue.record("read a broken binary list"); continue }
            #expect(f.message.hasPrefix("binary property list:"), "\(f.message)")
        }
        // Over the size limit: refused before reading.
        guard case .failure(let big) = PropertyList.parse(Data(count: PropertyList.maxBytes + 1)) else { Issue.record("read a huge list"); return }
        #expect(big.message.contains("is not read"))
    }

    /// Trailmark's App/ has an entitlements file, and the repository's own check passes with it.
    @Test func trailmarkEntitlementsPass() throws {
        let r = try runCLI(["scan", "App"], cwd: Paths.root)
        #expect(r.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n", "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: Paths.root + "/App/Trailmark.entitlements"))
    }
}
