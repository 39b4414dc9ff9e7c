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

/// Issue #11, defect 6: no control character from a file reaches a terminal or a CI log raw.
@Suite struct OutputEscapingTests {
    static let fixture = Paths.fixture("security/control-names.yaml")

    /// True when `s` holds a character a terminal or log would act on (newlines aside).
    static func hasRawControl(_ s: String) -> Bool {
        s.unicodeScalars.contains { $0 != "\n" && ControlCharacters.needsEscape($0) }
    }

    @Test func textOutputEscapesNamesAndKeepsOneLinePerDiagnostic() throws {
        let r = try runCLI(["lint", Self.fixture])
        #expect(r.code == 1)
        #expect(!Self.hasRawControl(r.stdout))
        #expect(r.stdout.contains(#"record type name 'Evil\u{1B}]0;owned\u{7}' is not valid"#), "\(r.stdout)")
        #expect(r.stdout.contains(#".x\n:\u{3A}error file=forged.swift,line=1:\u{3A}forged' is not valid"#))
        #expect(r.stdout.contains(#"bell\u{7}\u{9B}31m"#))
        // The forged annotation never starts a line.
        #expect(!r.stdout.split(separator: "\n").contains { $0.hasPrefix("::") })
    }

    @Test func githubOutputCannotBeForged() throws {
        let r = try runCLI(["lint", "--format", "github", Self.fixture])
        #expect(r.code == 1)
        #expect(!Self.hasRawControl(r.stdout))
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=") && $0.contains("control-names.yaml,line=") })
        #expect(!r.stdout.contains("file=forged.swift,line=1::forged\n"))
    }

    @Test(arguments: ["json", "sarif"])
    func jsonAndSarifEscapeByConstruction(format: String) throws {
        let r = try runCLI(["lint", "--format", format, Self.fixture])
        #expect(r.code == 1)
        #expect(!Self.hasRawControl(r.stdout))
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        let text = String(describing: object)
        #expect(text.contains("owned"))
    }

    @Test func diffTextEscapesNames() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("ckschema: 1\n".utf8).write(to: URL(fileURLWithPath: dir + "/empty.yaml"))
        let r = try runCLI(["diff", dir + "/empty.yaml", Self.fixture])
        #expect(!Self.hasRawControl(r.stdout), "\(r.stdout)")
        #expect(r.stdout.contains(#"Evil\u{1B}]0;owned\u{7}"#), "\(r.stdout)")
        #expect(!r.stdout.split(separator: "\n").contains { $0.hasPrefix("::") })
    }

    @Test func aFileNameWithControlsIsEscaped() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bad\u{1B}[31m\nname.yaml"
        try Data("ckschema: 1\nrecordTypes:\n  \"a b\": {}\n".utf8).write(to: URL(fileURLWithPath: path))
        for format in ["text", "github"] {
            let r = try runCLI(["lint", "--format", format, path])
            #expect(r.code == 1, "\(r.stderr)")
            #expect(!Self.hasRawControl(r.stdout + r.stderr), "\(format)")
            #expect((r.stdout + r.stderr).contains(#"bad\u{1B}[31m\nname.yaml"#), "\(format): \(r.stdout)")
        }
    }

    @Test func usageErrorsEscapeWhatTheUserTyped() throws {
        let r = try runCLI(["lint\u{1B}]0;x\u{07}"])
        #expect(r.code == 2)
        #expect(!Self.hasRawControl(r.stderr))
        let v = try runCLI(["validate", "--format", "te\u{1B}[2Jxt", "x.ndjson"])
        #expect(v.code == 2)
        #expect(!Self.hasRawControl(v.stderr), "\(v.stderr)")
    }

    @Test func escapingLeavesPlainTextAlone() {
        #expect(ControlCharacters.escaped("plain text: 'x' [CK101]") == "plain text: 'x' [CK101]")
        #expect(ControlCharacters.escaped("é ü 中") == "é ü 中")
        #expect(ControlCharacters.escaped("a\u{202E}b\u{2028}c\u{85}") == #"a\u{202E}b\u{2028}c\u{85}"#)
        #expect(ControlCharacters.escapedKeepingNewlines("a\nb\u{1B}") == "a\nb\\u{1B}")
    }
}
