import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaLinter

/// Runs the built binary with its standard output on a terminal (a pseudo-terminal), as a
/// user at a shell sees it: the source line and the caret are shown only there. Output
/// post-processing is off, so lines end in "\n" as through a pipe.
func runCLIOnTerminal(_ arguments: [String], cwd: String = Paths.root) throws -> CLIResult {
    // POSIX's pseudo-terminal calls, looked up by name: Glibc's module does not declare them
    // (they sit behind _XOPEN_SOURCE), Darwin's does; both C libraries have them.
    typealias OpenPT = @convention(c) (Int32) -> Int32
    typealias PTName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    let libc = dlopen(nil, RTLD_NOW)
    func symbol<T>(_ name: String, _: T.Type) throws -> T {
        guard let p = dlsym(libc, name) else { throw CocoaError(.fileReadUnknown) }
        return unsafeBitCast(p, to: T.self)
    }
    let openpt = try symbol("posix_openpt", OpenPT.self), grant = try symbol("grantpt", OpenPT.self)
    let unlock = try symbol("unlockpt", OpenPT.self), ptsname = try symbol("ptsname", PTName.self)
    let master = openpt(O_RDWR | O_NOCTTY)
    guard master >= 0 else { throw CocoaError(.fileReadUnknown) }
    defer { close(master) }
    guard grant(master) == 0, unlock(master) == 0, let cName = ptsname(master) else { throw CocoaError(.fileReadUnknown) }
    let name = String(cString: cName)
    let slave = open(name, O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw CocoaError(.fileReadUnknown) }
    var settings = termios()
    tcgetattr(slave, &settings)
    settings.c_oflag &= ~tcflag_t(OPOST)
    tcsetattr(slave, TCSANOW, &settings)
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.binary)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: cwd)
    var env = ProcessInfo.processInfo.environment
    env["CI"] = nil
    process.environment = env
    let err = Pipe()
    process.standardOutput = terminal
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // The child holds the terminal now; once it exits, reading the master ends (EIO).
    try terminal.close()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    var out = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = read(master, &buffer, buffer.count)
        if n > 0 { out.append(contentsOf: buffer[0..<n]); continue }
        if n < 0 && errno == EINTR { continue }
        break
    }
    group.wait()
    process.waitUntilExit()
    return CLIResult(stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                     code: process.terminationStatus)
}

/// Findings about a field's type or indexes point at the value, not the key (CK104-CK106,
/// CK108, CK109, CK110, CK113, CK120; docs/output.md, "Where a finding points"), and a missing
/// index comes with the fix-it that adds it where the replacement is exact.
@Suite struct ValuePlaceTests {
    static let yaml = "Tests/Fixtures/lint/places/places.yaml"
    static let ckdb = "Tests/Fixtures/lint/places/places.ckdb"

    @Test func onATerminalTheCaretPointsAtTheValue() throws {
        let r = try runCLIOnTerminal(["lint", Self.yaml])
        #expect(r.code == 1)
        try expectMatchesFixture(r.stdout, "Tests/Fixtures/lint/places/places.terminal.expected")
    }

    @Test func withoutATerminalTheLinesHaveTheValuesPlaces() throws {
        let r = try runCLI(["lint", Self.yaml])
        #expect(r.code == 1)
        try expectMatchesFixture(r.stdout, "Tests/Fixtures/lint/places/places.expected")
    }

    @Test func aCKDBFindingPointsAtTheTypeTokenOrTheIndexKeywords() throws {
        let r = try runCLIOnTerminal(["lint", Self.ckdb])
        #expect(r.code == 1)
        try expectMatchesFixture(r.stdout, "Tests/Fixtures/lint/places/places-ckdb.terminal.expected")
    }

    /// The diagnostics of `lint --format json` over `path`.
    static func jsonDiagnostics(_ path: String, cwd: String = Paths.root) throws -> [[String: Any]] {
        let r = try runCLI(["lint", path, "--format", "json"], cwd: cwd)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return try #require(object["diagnostics"] as? [[String: Any]])
    }

    @Test func theMissingIndexFixItIsInJSONAndSARIF() throws {
        let diags = try Self.jsonDiagnostics(Self.yaml)
        let sort = try #require(diags.first { ($0["message"] as? String)?.contains("sorts on 'startedAt'") == true })
        #expect(sort["line"] as? Int == 19 && sort["column"] as? Int == 49)
        let fixIt = try #require(sort["fixIt"] as? [String: Any])
        #expect(fixIt["file"] as? String == Self.yaml)
        #expect(fixIt["line"] as? Int == 8 && fixIt["endLine"] as? Int == 8)
        #expect(fixIt["column"] as? Int == 18 && fixIt["endColumn"] as? Int == 29)
        #expect(fixIt["replacement"] as? String == "[queryable, sortable]")
        // A block list has no one-line text to replace: words only.
        let block = try #require(diags.first { ($0["message"] as? String)?.contains("sorts on 'stops'") == true })
        #expect(block["fixIt"] == nil)
        #expect(block["fix"] as? String == "add 'sortable' to the indexes of Trip.fields.stops")

        let sarif = try runCLI(["lint", Self.yaml, "--format", "sarif"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let result = try #require(results.first { (($0["message"] as? [String: Any])?["text"] as? String)?.contains("sorts on 'startedAt'") == true })
        let change = try #require(((result["fixes"] as? [[String: Any]])?.first?["artifactChanges"] as? [[String: Any]])?.first)
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        #expect(replacement["deletedRegion"] as? [String: Int] == ["startLine": 8, "startColumn": 18, "endLine": 8, "endColumn": 29])
        #expect((replacement["insertedContent"] as? [String: Any])?["text"] as? String == "[queryable, sortable]")
    }

    /// Applies each fix-it of `diags` (one per line, as these are) to `text`.
    static func apply(_ diags: [[String: Any]], to text: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        for d in diags {
            guard let f = d["fixIt"] as? [String: Any] else { continue }
            let line = try #require(f["line"] as? Int), start = try #require(f["column"] as? Int)
            let end = try #require(f["endColumn"] as? Int), replacement = try #require(f["replacement"] as? String)
            var scalars = Array(lines[line - 1].unicodeScalars)
            scalars.replaceSubrange((start - 1)..<(end - 1), with: replacement.unicodeScalars)
            lines[line - 1] = String(String.UnicodeScalarView(scalars))
        }
        return lines.joined(separator: "\n")
    }

    @Test func applyingTheIndexFixItsMakesTheirFindingsGoAway() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = """
            ckschema: 1
            recordTypes:
              Trip:
                system: { recordName: [queryable] }
                fields:
                  title: { type: string, indexes: [queryable] }
                  startedAt: { type: timestamp, indexes: [queryable] }
                  rating: { type: int64, indexes: queryable }
                  note: { type: string, indexes: [] }
                  photo: { type: asset, indexes: [queryable, sortable] }
            queries:
              - { recordType: Trip, filter: [title], sort: [startedAt] }
              - { recordType: Trip, filter: [note], sort: [rating], search: [title] }

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/s.yaml"))
        let before = try Self.jsonDiagnostics("s.yaml", cwd: dir)
        // Four missing indexes and the asset's refused two: each finding has its fix-it, each on
        // a line of its own, so all apply at once.
        #expect(before.count == 5 && before.allSatisfy { $0["fixIt"] != nil }, "\(before)")
        let lines = before.compactMap { ($0["fixIt"] as? [String: Any])?["line"] as? Int }
        #expect(Set(lines).count == before.count, "\(lines)")
        let applyRest = try Self.apply(before, to: text)
        try Data(applyRest.utf8).write(to: URL(fileURLWithPath: dir + "/s.yaml"))
        let clean = try runCLI(["lint", "s.yaml"], cwd: dir)
        #expect(clean.code == 0, "\(applyRest)\n\(clean.stdout)")
        #expect(clean.stdout == "ckschema lint: passed: 0 errors, 0 warnings\n")
        #expect(applyRest.contains("startedAt: { type: timestamp, indexes: [queryable, sortable] }"))
        #expect(applyRest.contains("rating: { type: int64, indexes: [queryable, sortable] }"))
        #expect(applyRest.contains("title: { type: string, indexes: [queryable, searchable] }"))
        #expect(applyRest.contains("note: { type: string, indexes: [queryable] }"))
        #expect(applyRest.contains("photo: { type: asset, indexes: [] }"))
    }

    @Test func aCKDBIndexFixItReplacesTheKeywordsAndApplies() throws {
        let diags = try Self.jsonDiagnostics(Self.ckdb)
        let raw = try #require(diags.first { ($0["message"] as? String)?.contains("'Trip.raw'") == true })
        let fixIt = try #require(raw["fixIt"] as? [String: Any])
        #expect(fixIt["replacement"] as? String == "QUERYABLE")
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fixed = try Self.apply([raw], to: try read(Paths.root + "/" + Self.ckdb))
        #expect(fixed.contains("        raw             BYTES QUERYABLE,\n"))
        try Data(fixed.utf8).write(to: URL(fileURLWithPath: dir + "/s.ckdb"))
        let after = try Self.jsonDiagnostics("s.ckdb", cwd: dir)
        #expect(!after.contains { ($0["message"] as? String)?.contains("'Trip.raw'") == true }, "\(after)")
    }

    /// A comment on the field's key line still covers a finding that now points at its value.
    @Test func aSuppressionOnTheKeyLineStillCoversTheValue() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = """
            ckschema: 1
            recordTypes:
              Trip:
                fields:
                  # ckschema-disable CK120: deployed in 2019, the type cannot change
                  count:
                    type: number
                  body:  # ckschema-disable CK105: checked by hand
                    type: bytes
                    encrypted: true
                    indexes: [queryable]

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/s.yaml"))
        let r = try runCLI(["lint", "s.yaml"], cwd: dir)
        #expect(r.code == 0, "\(r.stdout)")
        #expect(r.stdout == "ckschema lint: passed: 0 errors, 0 warnings\n")
    }

    /// The model records where each value is written; both YAML decoders agree
    /// (SchemaEventDecoderTests compares them over every fixture).
    @Test func theModelKnowsWhereTheValuesAre() throws {
        let data = try InputFile.read(path: Paths.root + "/" + Self.yaml)
        let schema = try SchemaDecoder.load(data, file: "p.yaml").schema
        let trip = try #require(schema.recordTypes.first)
        func field(_ name: String) throws -> Field { try #require(trip.field(named: name)) }
        #expect(try field("title").typeLocation?.description == "p.yaml:5:22")
        #expect(try field("title").indexesLocation?.description == "p.yaml:5:39")
        #expect(try field("title").indexesWidth == 11)
        #expect(try field("startedAt").typeLocation?.description == "p.yaml:7:15")
        #expect(try field("startedAt").indexesLocation?.description == "p.yaml:8:18")
        #expect(try field("count").typeLocation?.description == "p.yaml:12:14")
        #expect(try field("stops").indexesLocation?.description == "p.yaml:16:11")
        #expect(try field("stops").indexesWidth == nil, "a block list")
        #expect(try field("owner").referenceTargetLocation?.description == "p.yaml:17:34")
        #expect(MemoryLayout<Field>.stride <= 56, "the places cost a field no byte")
        let ckdb = try CKDBParser.parse(try InputFile.read(path: Paths.root + "/" + Self.ckdb), file: "p.ckdb")
        let t = try #require(ckdb.recordTypes.first)
        #expect(t.field(named: "raw")?.typeLocation?.description == "p.ckdb:12:25")
        #expect(t.field(named: "raw")?.indexesLocation?.description == "p.ckdb:12:31")
        #expect(t.field(named: "raw")?.indexesWidth == 20)
        #expect(t.field(named: "owner")?.typeLocation?.description == "p.ckdb:13:25")
    }
}
