import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaSwift

/// Issue 35, hostile input round three: each defect the attack run found, through the built
/// binary where the issue names a command.
@Suite struct HostileRoundThreeTests {
    /// A model file whose property `x` has the type `type`, in a fresh folder.
    static func model(_ type: String, name: String = "Deep") throws -> (dir: String, file: String) {
        let dir = try makeTempDir("ckschema-hostile3")
        let file = dir + "/\(name).swift"
        try Data(("import SwiftData\n\n@Model final class \(name) {\n    var x: " + type + "\n    init() {}\n}\n").utf8).write(to: URL(fileURLWithPath: file))
        return (dir, file)
    }

    // Point 1: `Int` and 150,000 `?` died with SIGSEGV in lint, import and generate swift (the
    // optional chain was built, then released one frame per `?`). Now the type is refused at
    // 32 levels, with a located note that quotes it clipped.
    @Test(arguments: [
        ("Int" + String(repeating: "?", count: 150_000), "Int" + String(repeating: "?", count: 197) + "…"),
        (String(repeating: "[", count: 100_000) + "Int" + String(repeating: "]", count: 100_000), String(repeating: "[", count: 200) + "…"),
        (String(repeating: "(", count: 100_000) + "Int" + String(repeating: ")", count: 100_000), String(repeating: "(", count: 200) + "…"),
        (String(repeating: "[String: ", count: 40_000) + "Int" + String(repeating: "]", count: 40_000), String(String(repeating: "[String: ", count: 30).prefix(200)) + "…"),
        (String(repeating: "Optional<", count: 40_000) + "Int" + String(repeating: ">", count: 40_000), String(String(repeating: "Optional<", count: 30).prefix(200)) + "…"),
        (String(repeating: "() -> ", count: 40_000) + "Int", String(String(repeating: "() -> ", count: 40).prefix(200)) + "…"),
        (String(repeating: "(() -> ", count: 40_000) + "Int" + String(repeating: ")", count: 40_000), String(String(repeating: "(() -> ", count: 40).prefix(200)) + "…"),
    ])
    func aDeepTypeIsALocatedNoteNotACrash(type: String, quoted: String) throws {
        let (dir, file) = try Self.model(type + " = 0")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let note = file + ":4:9: note: 'x' has a type nested more than 32 levels deep ('\(quoted)'): not read, assumed bytes [CK641]"
        let lint = try runCLI(["lint", file])
        #expect(lint.code == 0, "\(lint.stderr.prefix(600))")
        #expect(lint.stdout.split(separator: "\n").contains { $0 == note }, "\(lint.stdout.prefix(600))")
        #expect(lint.stdout.split(separator: "\n").allSatisfy { $0.utf8.count < 1_000 })
        let imported = try runCLI(["import", dir, "-o", "-"])
        #expect(imported.code == 0, "\(imported.stderr.prefix(600))")
        #expect(imported.stdout.contains("CD_x: { type: bytes"), "\(imported.stdout.prefix(600))")
        let generated = try runCLI(["generate", "swift", file, "-o", dir + "/Gen"])
        #expect(generated.code == 0, "\(generated.stderr.prefix(600))")
    }

    /// At the bound and one past it, each way of nesting: 31 `?` read as an optional, 32 do not.
    @Test func theDepthBoundIsExact() throws {
        func type(_ text: String) -> SwiftTypeRef? {
            let s = SwiftSource(bytes: Array(text.utf8), file: "t.swift")
            return SwiftTypeRef.parse(s, 0..<(s.tokens.count - 1))
        }
        #expect(type("Int" + String(repeating: "?", count: 31))?.unwrapped.type == .named(["Int"]))
        guard case .tooDeep = type("Int" + String(repeating: "?", count: 32)) else { Issue.record("32 optionals read"); return }
        #expect(type(String(repeating: "[", count: 31) + "Int" + String(repeating: "]", count: 31)) != nil)
        guard case .tooDeep = type(String(repeating: "[", count: 32) + "Int" + String(repeating: "]", count: 32)) else { Issue.record("32 arrays read"); return }
        // Heights add up across kinds: 20 generic optionals in an array, then 20 `?`.
        guard case .tooDeep = type("[" + String(repeating: "Optional<", count: 20) + "Int" + String(repeating: ">", count: 20) + "]" + String(repeating: "?", count: 20)) else {
            Issue.record("a 42-high mixed type read"); return
        }
        if case .tooDeep = type("[String: [Int?]?]?") { Issue.record("a shallow type refused") }
    }

    // Point 7: invalid UTF-8 in a string literal was read as U+FFFD (and even suggested as a
    // name); swiftc refuses it, as the reader does in an identifier: CK003 at its byte, exit 2.
    @Test func invalidUTF8InAStringLiteralIsRefusedAtItsByte() throws {
        let dir = try makeTempDir("ckschema-hostile3")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/Bad.swift"
        var bytes = Array("import SwiftData\n\n@Model final class Bad {\n    @Attribute(originalName: \"na".utf8)
        bytes.append(0xFF)
        bytes += Array("me\") var name: String = \"\"\n    let s = \"\\(\"in\u{e9}".utf8)
        bytes += [0xC3, 0x28]   // a lead byte without its continuation, inside an interpolation's string
        bytes += Array("\")\"\n    init() {}\n}\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        for command in [["lint", file], ["import", file, "-o", "-"]] {
            let r = try runCLI(command)
            #expect(r.code == 2)
            #expect(r.stderr == """
                \(file):4:33: error: the file is not valid UTF-8 (at byte 75) [CK003]
                \(file):4:33: note: save the file as UTF-8
                \(file):5:20: error: the file is not valid UTF-8 (at byte 123) [CK003]
                \(file):5:20: note: save the file as UTF-8

                """, "\(command[0]): \(r.stderr)")
        }
        // Well-formed multi-byte text in a literal still reads.
        let s = SwiftSource(bytes: Array("let a = \"caf\u{e9} \u{1F600}\"".utf8), file: "t.swift")
        #expect(s.problems.isEmpty)
        #expect(s.stringValue(3) == "caf\u{e9} \u{1F600}")
    }

    // Point 10: an unterminated raw string said to close it with '"'; it needs '"#'.
    @Test func anUnterminatedRawStringSaysHowToCloseIt() throws {
        let (dir, file) = try Self.model("String = ##\"never closed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["lint", file])
        #expect(r.code == 2)
        #expect(r.stderr == """
            \(file):4:21: error: unterminated raw string literal [CK640]
            \(file):4:21: note: close the raw string with '"##' (as many '#' as it opens with)

            """, "\(r.stderr)")
        let multi = SwiftSource(bytes: Array("let a = #\"\"\"\nnever closed\n".utf8), file: "t.swift")
        #expect(multi.problems.map(\.fix) == ["close the raw string with '\"\"\"#' (as many '#' as it opens with), on its own line"])
        let plain = SwiftSource(bytes: Array("let a = \"\"\"\nnever closed\n".utf8), file: "t.swift")
        #expect(plain.problems.map(\.message) == ["unterminated multi-line string literal"])
    }

    /// The quoted text of a message is clipped to `Diagnostic.quoteLimit` characters.
    @Test func quotedTextIsClipped() {
        #expect(Diagnostic.clipped("short") == "short")
        #expect(Diagnostic.clipped(String(repeating: "é", count: 300)) == String(repeating: "é", count: 200) + "…")
        #expect(Diagnostic.clipped(String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
    }
}

/// Issue 35 point 4: `##[` never reaches a CI log raw, whatever the command and format. The
/// GitHub runner acts on `##[command]` anywhere in a line; JSON and SARIF wrote names raw.
@Suite struct LogCommandEscapingTests {
    /// A project whose names hold `##[error]` and `::error::` in every place a command shows:
    /// schema fields (lint, promote, check, diff), a record's fields (validate), a migration's
    /// (migrate status), and the keys the app's code writes (scan's surface).
    static func project() throws -> String {
        let dir = try makeTempDir("ckschema-logcmd")
        try FileManager.default.createDirectory(atPath: dir + "/App", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/Migrations", withIntermediateDirectories: true)
        let files = [
            "ckschema.yaml": "ckschema: 1\nschemas:\n  development: dev.yaml\n  production: prod.yaml\nmigrations: Migrations\ncode: [App]\nstore: store.sqlite\n",
            "dev.yaml": "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      \"t##[error]x\": int64\n      \"a::error::b\": string\n",
            "prod.yaml": "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      \"t##[error]x\": string\n",
            "App/A.swift": "import CloudKit\n\nfunc save() {\n    let r = CKRecord(recordType: \"Note\")\n    r[\"k##[error]y\"] = \"v\" as CKRecordValue\n    r[\"c::error::d\"] = \"v\" as CKRecordValue\n}\n",
            "r.ndjson": #"{"recordName":"n1","recordType":"Note","fields":{"z##[error]q":{"value":"x","type":"STRING"},"b::error::c":{"value":"x","type":"STRING"}}}"# + "\n",
            "Migrations/0001_first.yaml": "steps:\n  - addRecordType:\n      name: Note\n      fields:\n        \"t##[error]x\": string\n        \"a::error::b\": string\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        return dir
    }

    static let commands: [[String]] = [
        ["lint", "dev.yaml"], ["promote", "--check"], ["check"], ["validate", "--schema", "dev.yaml", "r.ndjson"],
        ["migrate", "status"], ["diff", "prod.yaml", "dev.yaml"], ["scan", "App", "--schema", "dev.yaml"],
    ]

    /// Every string a JSON document holds, keys included.
    static func strings(_ value: Any) -> [String] {
        switch value {
        case let s as String: [s]
        case let a as [Any]: a.flatMap(strings)
        case let d as [String: Any]: d.keys.map { $0 } + d.values.flatMap(strings)
        default: []
        }
    }

    @Test(arguments: commands)
    func noFormatPrintsARawLogCommand(command: [String]) throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let formats = command[0] == "diff" ? ["text", "json", "markdown"] : ["text", "json", "github", "sarif", "markdown"]
        for format in formats {
            let r = try runCLI(command + ["--format", format], cwd: dir)
            let label = (command + [format]).joined(separator: " ")
            #expect([0, 1, 2].contains(r.code), "\(label): \(r.code)")
            let all = r.stdout + r.stderr
            #expect(all.contains("#"), "\(label): the names are shown: \(all)")
            #expect(!all.contains("##["), "\(label): \(all)")
            for line in all.split(separator: "\n") {
                #expect(!line.hasPrefix("::error::") && !line.hasPrefix("##"), "\(label): \(line)")
            }
            // A JSON or SARIF document on stdout still reads back to the names as written.
            if (format == "json" || format == "sarif"), !r.stdout.isEmpty {
                let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
                let texts = Self.strings(doc)
                #expect(texts.contains { $0.contains("##[error]") }, "\(label): \(r.stdout)")
            }
        }
    }

    /// The one JSON escaper: the second `#` of each `##[` is `\u0023`; the rest as it was.
    @Test func theEscaperBreaksEveryLogCommandAndDecodesBack() throws {
        for (text, written) in [
            ("##[error]x", ###""#\u0023[error]x""###), ("###[x", ###""##\u0023[x""###), ("#[ok] ## #", ###""#[ok] ## #""###),
            ("a::error::b", ###""a::error::b""###), ("##[a##[b", ###""#\u0023[a#\u0023[b""###),
        ] {
            let json = JSONValue.string(text).rendered(pretty: false)
            #expect(json == written)
            #expect(!json.contains("##["))
            #expect(try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String == text)
        }
    }
}
